package io.seekwell.client;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class SdkClientsTest {

  @Test
  void nettyEventLoopsFollowTheConnectionsUpToTwoPerCore() {
    assertEquals(8, SdkClients.eventLoops(128, 16), "the default pool on 16 cores");
    assertEquals(64, SdkClients.eventLoops(1024, 64), "a large instance's pool");
    assertEquals(4, SdkClients.eventLoops(128, 2), "at most two per core");
    assertEquals(1, SdkClients.eventLoops(1, 8), "at least one");
    assertEquals(2, SdkClients.eventLoops(17, 8), "one more for a part of 16");
  }
}
