package io.seekwell.bench.faults;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.testing.FaultProxy;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class LeftoverConnectionsTest {

  private ServerSocket store;
  private final List<Socket> accepted = new CopyOnWriteArrayList<>();
  private final List<Socket> clients = new CopyOnWriteArrayList<>();
  private FaultProxy proxy;

  @BeforeEach
  void startProxyInFrontOfAStoreThatHoldsItsConnections() throws IOException {
    store = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    Thread acceptor =
        new Thread(
            () -> {
              try {
                while (true) {
                  accepted.add(store.accept());
                }
              } catch (IOException closed) {
                // The test is over.
              }
            },
            "leftover-test-store");
    acceptor.setDaemon(true);
    acceptor.start();
    proxy = FaultProxy.start(URI.create("http://127.0.0.1:" + store.getLocalPort()));
  }

  @AfterEach
  void closeEverything() throws IOException {
    proxy.close();
    store.close();
    for (Socket socket : accepted) {
      socket.close();
    }
    for (Socket socket : clients) {
      socket.close();
    }
  }

  @Test
  void aProxyNobodyUsesIsQuietAfterASecondsLooks() throws Exception {
    AtomicInteger sleeps = new AtomicInteger();

    assertTrue(new LeftoverConnections(proxy, millis -> sleeps.incrementAndGet()).end(false));

    assertEquals(LeftoverConnections.QUIET_LOOKS, sleeps.get());
  }

  @Test
  void aConnectionLeftOpenIsDroppedAndThenTheProxyIsQuiet() throws Exception {
    Socket leftover = connect();
    assertEquals(1, proxy.openConnections());
    AtomicInteger sleeps = new AtomicInteger();

    assertTrue(new LeftoverConnections(proxy, millis -> sleeps.incrementAndGet()).end(false));

    assertEquals(LeftoverConnections.QUIET_LOOKS, sleeps.get());
    assertEquals(0, proxy.openConnections());
    assertEquals(-1, leftover.getInputStream().read());
  }

  @Test
  void afterAnAbandonedIterationTheProxyMustStayQuietForTenSeconds() throws Exception {
    AtomicInteger sleeps = new AtomicInteger();

    assertTrue(new LeftoverConnections(proxy, millis -> sleeps.incrementAndGet()).end(true));

    assertEquals(LeftoverConnections.QUIET_LOOKS_AFTER_ABANDONED, sleeps.get());
  }

  @Test
  void aConnectionOpenedMeanwhileStartsTheQuietSecondAgain() throws Exception {
    AtomicInteger sleeps = new AtomicInteger();

    boolean quiet =
        new LeftoverConnections(
                proxy,
                millis -> {
                  if (sleeps.incrementAndGet() == 3) {
                    connectDuringASleep();
                  }
                })
            .end(false);

    assertTrue(quiet);
    assertEquals(3 + LeftoverConnections.QUIET_LOOKS, sleeps.get());
  }

  @Test
  void aLeftoverThatKeepsConnectingIsReportedAfterAMinutesLooks() throws Exception {
    AtomicInteger sleeps = new AtomicInteger();

    boolean quiet =
        new LeftoverConnections(
                proxy,
                millis -> {
                  sleeps.incrementAndGet();
                  connectDuringASleep();
                })
            .end(false);

    assertFalse(quiet);
    assertEquals(LeftoverConnections.MAX_LOOKS, sleeps.get());
  }

  /** {@link #connect()} where only unchecked exceptions may be thrown (a sleep). */
  private void connectDuringASleep() {
    try {
      connect();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Opens a connection through the proxy, once the proxy has counted it. */
  private Socket connect() throws IOException {
    int before = proxy.connections();
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), proxy.uri().getPort());
    clients.add(socket);
    long deadline = System.nanoTime() + 5_000_000_000L;
    while (proxy.connections() == before) {
      if (System.nanoTime() > deadline) {
        throw new IOException("the proxy did not count a connection within 5 s");
      }
      Thread.onSpinWait();
    }
    return socket;
  }
}
