package io.seekwell.bench.store;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

/** Prints a free TCP port of 127.0.0.1, for the scripts. */
public final class FreePort {

  private FreePort() {}

  public static void main(String[] args) throws IOException {
    System.out.println(free());
  }

  static int free() throws IOException {
    try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      return socket.getLocalPort();
    }
  }
}
