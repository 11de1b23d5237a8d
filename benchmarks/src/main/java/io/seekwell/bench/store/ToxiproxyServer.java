package io.seekwell.bench.store;

import io.seekwell.bench.ProcessResources;
import io.seekwell.testing.Processes;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;

/**
 * A Toxiproxy server the benchmark owns, with the {@code s3} profile in front of one endpoint, and
 * a second proxy of the same endpoint without it (the proxy's own cost, no latency). {@link
 * #restart()} replaces the process with a fresh one on the same ports: a proxy that has buffered
 * the rest of aborted GETs keeps gigabytes of memory it does not give back, which would slow down
 * whichever read path runs after it.
 *
 * <p>Thread-safe: closing it (also from a shutdown hook) stops the process, and no process is
 * started after that.
 */
public final class ToxiproxyServer implements AutoCloseable {

  private static final String PROXY = "bench-s3";
  private static final String PLAIN_PROXY = "bench-plain";

  private final Path binary;
  private final Path log;
  private final URI upstream;
  private final int apiPort;
  private final int proxyPort;
  private final int plainPort;
  private Process process;
  private boolean closed;

  private ToxiproxyServer(Path binary, Path log, URI upstream) throws IOException {
    this.binary = binary;
    this.log = log;
    this.upstream = upstream;
    this.apiPort = FreePort.free();
    this.proxyPort = FreePort.free();
    this.plainPort = FreePort.free();
  }

  /** Starts {@code binary} on free ports of 127.0.0.1, proxying {@code upstream}. */
  static ToxiproxyServer start(Path binary, Path log, URI upstream)
      throws IOException, InterruptedException {
    ToxiproxyServer server = new ToxiproxyServer(binary, log, upstream);
    // An interrupted run (Ctrl-C) ends the JVM without closing the server: stop it then too.
    Runtime.getRuntime().addShutdownHook(new Thread(server::close, "toxiproxy-stop"));
    server.launch();
    return server;
  }

  /** The proxied endpoint: reads through it see 25 ms latency and 90 MB/s per connection. */
  public URI endpoint() {
    return URI.create("http://127.0.0.1:" + proxyPort);
  }

  /** The endpoint proxied by the same server with no latency and no bandwidth limit. */
  public URI plainEndpoint() {
    return URI.create("http://127.0.0.1:" + plainPort);
  }

  /** Stops the server and starts a fresh one with the same proxy on the same ports. */
  public void restart() throws IOException, InterruptedException {
    stop();
    launch();
  }

  /** Whether the server process runs. */
  public synchronized boolean alive() {
    return process != null && process.isAlive();
  }

  /**
   * The server process's resident set now, what it holds of the rest of aborted responses; -1 if it
   * has ended.
   */
  public synchronized long residentBytes() throws IOException {
    return process == null ? 0 : ProcessResources.residentBytes(process.pid());
  }

  @Override
  public synchronized void close() {
    closed = true;
    stop();
  }

  private void launch() throws IOException, InterruptedException {
    startProcess();
    URI api = URI.create("http://127.0.0.1:" + apiPort);
    if (!AwaitHttp.await(api.resolve("/version"))) {
      stop();
      throw new IOException("Toxiproxy did not start within 30 s; see " + log);
    }
    Toxiproxy toxiproxy = new Toxiproxy(api);
    toxiproxy.createS3Profile(PROXY, proxyPort, upstream);
    toxiproxy.createPlainProxy(PLAIN_PROXY, plainPort, upstream);
  }

  private synchronized void startProcess() throws IOException {
    if (closed) {
      throw new IOException("Toxiproxy is stopped: the benchmark is ending");
    }
    process =
        new ProcessBuilder(
                binary.toString(), "-host", "127.0.0.1", "-port", Integer.toString(apiPort))
            .redirectErrorStream(true)
            .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
            .start();
  }

  private synchronized void stop() {
    if (process != null) {
      Processes.stop(process);
      process = null;
    }
  }
}
