package io.seekwell.bench.store;

import com.sun.net.httpserver.HttpServer;
import io.seekwell.testing.FaultProxy;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;

/**
 * Serves a proxy's counters over HTTP on 127.0.0.1, for readers in other JVMs (the TPC-H
 * benchmark's Spark drivers, which take them before and after each query): {@code GET /counters}
 * answers one line, {@code gets bytes}, the object GETs the proxy forwarded and the response bytes
 * it sent so far. Closing stops it.
 */
public final class ProxyCounters implements AutoCloseable {

  private final HttpServer server;

  private ProxyCounters(HttpServer server) {
    this.server = server;
  }

  /** Serves {@code proxy}'s counters on a free port. */
  public static ProxyCounters serve(FaultProxy proxy) throws IOException {
    HttpServer server =
        HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
    server.createContext(
        "/counters",
        exchange -> {
          byte[] body =
              (proxy.forwardedObjectGets() + " " + proxy.bytesToClients() + "\n")
                  .getBytes(StandardCharsets.US_ASCII);
          exchange.sendResponseHeaders(200, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    return new ProxyCounters(server);
  }

  /** Where the counters are served. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/counters");
  }

  @Override
  public void close() {
    server.stop(0);
  }
}
