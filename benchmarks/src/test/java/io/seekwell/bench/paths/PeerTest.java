package io.seekwell.bench.paths;

import static io.seekwell.bench.paths.Peer.AAL;
import static io.seekwell.bench.paths.Peer.ICEBERG_DEFAULT;
import static io.seekwell.bench.paths.Peer.S3A_ANALYTICS;
import static io.seekwell.bench.paths.Peer.S3A_CLASSIC;
import static io.seekwell.bench.paths.Peer.S3A_CLASSIC_ORC_TUNED;
import static io.seekwell.bench.paths.Peer.SEEKWELL;
import static io.seekwell.bench.paths.Peer.SEEKWELL_CRT;
import static io.seekwell.bench.paths.Peer.SEEKWELL_ICEBERG;
import static io.seekwell.bench.paths.Peer.SEEKWELL_S3A;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PeerTest {

  @Test
  void thePathsKeepTheNamesTheCommandLineAndTheReportsUse() {
    assertEquals(
        List.of(
            "seekwell",
            "seekwell-crt",
            "aal",
            "iceberg-default",
            "seekwell-iceberg",
            "s3a-classic",
            "s3a-analytics",
            "s3a-classic-orc-tuned",
            "seekwell-s3a"),
        Arrays.stream(Peer.values()).map(Peer::toString).toList());
  }

  @Test
  void aPathIsNamedWithOrWithoutItsSuffix() {
    assertEquals(SEEKWELL_ICEBERG, Peer.named("seekwell-iceberg@disk"));
    assertEquals(AAL, Peer.named("aal"));
    assertEquals("seekwell", Peer.nameOf("seekwell@no-latency"));
    assertTrue(Peer.namesSeekwell("seekwell@direct"));
    assertFalse(Peer.namesSeekwell("s3a-analytics"));
    assertFalse(Peer.namesSeekwell("seekwell-unknown"));
    assertEquals(Optional.empty(), Peer.find("seekwell-unknown"));
    assertEquals(
        "Unknown read path: seekwell-unknown@disk",
        assertThrows(IllegalArgumentException.class, () -> Peer.named("seekwell-unknown@disk"))
            .getMessage());
  }

  @Test
  void aSeekwellPathIsComparedWithThePeersOfItsStackItsDefaultFirst() {
    assertEquals(List.of(AAL), SEEKWELL.peers());
    assertEquals(List.of(AAL), SEEKWELL_CRT.peers());
    assertEquals(List.of(ICEBERG_DEFAULT), SEEKWELL_ICEBERG.peers());
    assertEquals(List.of(S3A_ANALYTICS, S3A_CLASSIC, S3A_CLASSIC_ORC_TUNED), SEEKWELL_S3A.peers());
    assertEquals(List.of(), AAL.peers());
  }

  @Test
  void eachConnectorIsComparedWithItsStacksDefaultStream() {
    assertEquals(List.of(SEEKWELL_ICEBERG, SEEKWELL_S3A), Peer.connectors());
    assertEquals(Optional.of(ICEBERG_DEFAULT), SEEKWELL_ICEBERG.stackDefault());
    assertEquals(Optional.of(S3A_ANALYTICS), SEEKWELL_S3A.stackDefault());
    assertEquals(Optional.empty(), SEEKWELL.stackDefault());
    assertEquals(Optional.empty(), S3A_CLASSIC.stackDefault());
  }

  @Test
  void eachStackHasOneSeekwellPathFirst() {
    assertEquals(
        List.of(SEEKWELL, SEEKWELL_ICEBERG, SEEKWELL_S3A),
        Arrays.stream(Peer.Stack.values()).map(Peer.Stack::seekwell).toList());
    assertEquals(
        List.of(S3A_CLASSIC_ORC_TUNED),
        Arrays.stream(Peer.values()).filter(Peer::orcOnly).toList());
  }
}
