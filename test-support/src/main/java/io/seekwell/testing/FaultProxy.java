package io.seekwell.testing;

import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;

/**
 * A TCP proxy on 127.0.0.1 in front of a plain-HTTP S3 endpoint that records request heads and
 * injects faults on demand: answer the next requests with HTTP 503 SlowDown, cut the next response
 * after some bytes (a connection reset), or stall it (no more bytes until the client gives up). It
 * can also draw a {@link ConnectionFault} for a fraction of the connections it accepts, as a flaky
 * network does: each such connection stalls, is cut (with FIN or RST) or is slow to answer. Handles
 * requests without bodies only (HEAD, GET), which is what readers send. It can limit each
 * connection's response bandwidth ({@link #limitBandwidth}), as a store's per-connection throughput
 * is limited. Thread-safe.
 */
public final class FaultProxy implements AutoCloseable {

  private static final byte[] HEAD_END = "\r\n\r\n".getBytes(StandardCharsets.US_ASCII);

  private final ServerSocket server;
  private final InetSocketAddress target;
  private final Queue<String> requestHeads = new ConcurrentLinkedQueue<>();
  private volatile boolean recordingHeads = true;
  private final Set<Socket> sockets = ConcurrentHashMap.newKeySet();
  private final AtomicInteger errorsLeft = new AtomicInteger();
  private volatile int errorStatus = 503;
  private volatile String errorCode = "SlowDown";
  private final Fault cutFault = new Fault();
  private final Fault stallFault = new Fault();
  private final AtomicLong bytesToClients = new AtomicLong();
  private final AtomicInteger connections = new AtomicInteger();
  private final AtomicLong forwardedRequests = new AtomicLong();
  private final AtomicLong forwardedObjectGets = new AtomicLong();
  private final Throttle throttle = new Throttle();
  private volatile long requestDelayMillis;
  private volatile long bytesPerSecond;
  private final AtomicInteger faultedConnections = new AtomicInteger();
  private volatile ConnectionFault connectionFault;
  private volatile double faultFraction;
  private volatile Random faultDraw = new Random(0);
  private volatile boolean closed;

  /** What goes wrong with a faulted connection. */
  public enum ConnectionFault {
    /** No response byte at all; the socket stays open. */
    STALL_BEFORE_HEADERS,
    /** The response stops after {@value #FAULT_AFTER_BYTES} bytes; the socket stays open. */
    STALL_BODY,
    /** The connection is closed normally (FIN) after {@value #FAULT_AFTER_BYTES} bytes. */
    CUT_FIN,
    /** The connection is reset (RST) after {@value #FAULT_AFTER_BYTES} bytes. */
    CUT_RST,
    /** The first response byte comes {@value #SLOW_FIRST_BYTE_MILLIS} ms late. */
    SLOW_FIRST_BYTE
  }

  /** How many response bytes pass on a faulted connection before a stall or a cut. */
  public static final int FAULT_AFTER_BYTES = 4096;

  /** How late the first byte of a {@link ConnectionFault#SLOW_FIRST_BYTE} connection comes. */
  public static final int SLOW_FIRST_BYTE_MILLIS = 1500;

  private FaultProxy(ServerSocket server, InetSocketAddress target) {
    this.server = server;
    this.target = target;
  }

  /** Starts a proxy in front of {@code endpoint} (an {@code http://host:port} URI). */
  public static FaultProxy start(URI endpoint) throws IOException {
    if (!"http".equals(endpoint.getScheme())) {
      throw new IllegalArgumentException("FaultProxy handles plain HTTP only: " + endpoint);
    }
    ServerSocket server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
    FaultProxy proxy =
        new FaultProxy(server, new InetSocketAddress(endpoint.getHost(), endpoint.getPort()));
    Thread acceptor = new Thread(proxy::acceptLoop, "fault-proxy-accept");
    acceptor.setDaemon(true);
    acceptor.start();
    return proxy;
  }

  /** The proxy's own endpoint, to give to the client under test. */
  public URI uri() {
    return URI.create("http://127.0.0.1:" + server.getLocalPort());
  }

  /** Answers the next {@code count} requests with HTTP 503 SlowDown. */
  public void failNextRequests(int count) {
    failNextRequests(count, 503, "SlowDown");
  }

  /** Answers the next {@code count} requests with HTTP {@code status} and S3 error {@code code}. */
  public void failNextRequests(int count, int status, String code) {
    errorStatus = status;
    errorCode = code;
    errorsLeft.set(count);
  }

  /**
   * Answers HTTP 503 SlowDown to the requests over {@code perSecond}, as S3 does to a prefix while
   * it scales: each request takes a token from a bucket that refills at that rate and holds at most
   * a tenth of a second's worth. The bucket starts full. 0 stops throttling.
   */
  public void throttleAbove(double perSecond) {
    if (!(perSecond >= 0)) {
      throw new IllegalArgumentException("perSecond must be >= 0, was " + perSecond);
    }
    synchronized (throttle) {
      throttle.perSecond = perSecond;
      throttle.tokens = Math.max(1, perSecond / 10);
      throttle.refilledNanos = System.nanoTime();
    }
  }

  /**
   * Holds each request this long before it is forwarded (or throttled), as if the store were far
   * away: S3's time to first byte is about 25 ms. Zero stops.
   */
  public void delayRequests(Duration delay) {
    if (delay.isNegative()) {
      throw new IllegalArgumentException("delay must not be negative, was " + delay);
    }
    requestDelayMillis = delay.toMillis();
  }

  /**
   * Limits the response bytes each connection forwards to {@code bytesPerSecond}, as a store whose
   * connections each deliver at most that much does (S3 gives one connection about 90 MB/s): a
   * connection sends what its pace allows and waits for the rest, and one that was idle starts
   * afresh, without a burst of what it could have sent meanwhile. It applies to connections open
   * now and to new ones. Zero stops.
   */
  public void limitBandwidth(long bytesPerSecond) {
    if (bytesPerSecond < 0) {
      throw new IllegalArgumentException("bytesPerSecond must be >= 0, was " + bytesPerSecond);
    }
    this.bytesPerSecond = bytesPerSecond;
  }

  /** Requests answered with 503 SlowDown by {@link #throttleAbove} so far. */
  public long throttledRequests() {
    return throttle.throttled.get();
  }

  /** Requests forwarded to the store so far. */
  public long forwardedRequests() {
    return forwardedRequests.get();
  }

  /**
   * GETs of an object (a path-style {@code GET /bucket/key}, not a listing of a bucket) forwarded
   * to the store so far.
   */
  public long forwardedObjectGets() {
    return forwardedObjectGets.get();
  }

  /** Resets the connection once {@code bytes} more response bytes have reached the client. */
  public void cutNextResponseAfter(long bytes) {
    cutFault.arm(bytes);
  }

  /** Stops forwarding response bytes once {@code bytes} more have reached the client. */
  public void stallNextResponseAfter(long bytes) {
    stallFault.arm(bytes);
  }

  /**
   * Gives each connection accepted from now on {@code fault} with probability {@code fraction} (1
   * for every connection), drawn from a generator seeded with {@code seed}. From now on every
   * request is forwarded with {@code Connection: close}, so that each request gets a connection of
   * its own and a fault of its own draw, however few connections the client would keep open.
   */
  public void faultConnections(ConnectionFault fault, double fraction, long seed) {
    faultDraw = new Random(seed);
    faultFraction = fraction;
    connectionFault = fault;
  }

  /** Connections accepted from now on are not faulted. */
  public void stopFaultingConnections() {
    connectionFault = null;
  }

  /** Connections accepted so far, and how many of them were given a fault. */
  public int connections() {
    return connections.get();
  }

  /** Connections still open: neither the client nor the store has closed them. */
  public int openConnections() {
    return sockets.size() / 2;
  }

  /** Connections that were given a fault so far. */
  public int faultedConnections() {
    return faultedConnections.get();
  }

  private ConnectionFault drawFault() {
    ConnectionFault fault = connectionFault;
    if (fault == null) {
      return null;
    }
    synchronized (this) {
      if (faultDraw.nextDouble() >= faultFraction) {
        return null;
      }
    }
    faultedConnections.incrementAndGet();
    return fault;
  }

  /**
   * The head (request line and headers) of every request received, in order, until {@link
   * #stopRecordingRequestHeads}.
   */
  public List<String> requestHeads() {
    return List.copyOf(requestHeads);
  }

  /** Forgets the heads recorded and records no more: for a proxy that runs for hours. */
  public void stopRecordingRequestHeads() {
    recordingHeads = false;
    requestHeads.clear();
  }

  /** Response bytes forwarded to clients so far, headers included. */
  public long bytesToClients() {
    return bytesToClients.get();
  }

  private static boolean isObjectGet(String head) {
    if (!head.startsWith("GET /")) {
      return false;
    }
    int end = head.indexOf(' ', 4);
    String target = head.substring(4, end < 0 ? head.length() : end);
    int query = target.indexOf('?');
    String path = query < 0 ? target : target.substring(0, query);
    int keyStart = path.indexOf('/', 1);
    return keyStart > 0 && keyStart < path.length() - 1;
  }

  private void acceptLoop() {
    while (!closed) {
      try {
        Socket client = server.accept();
        Socket upstream = new Socket();
        upstream.connect(target, 5_000);
        // Forward every write at once: with Nagle's algorithm a kept-alive connection's small
        // request heads wait for delayed ACKs, which adds tens of milliseconds per request.
        client.setTcpNoDelay(true);
        upstream.setTcpNoDelay(true);
        sockets.add(client);
        sockets.add(upstream);
        connections.incrementAndGet();
        ConnectionFault fault = drawFault();
        daemon(() -> pumpRequests(client, upstream), "fault-proxy-requests");
        daemon(() -> pumpResponses(upstream, client, fault), "fault-proxy-responses");
      } catch (IOException e) {
        if (!closed) {
          continue;
        }
        return;
      }
    }
  }

  private void pumpRequests(Socket client, Socket upstream) {
    try (client;
        upstream) {
      InputStream in = new BufferedInputStream(client.getInputStream());
      OutputStream out = upstream.getOutputStream();
      while (true) {
        byte[] head = readHead(in);
        if (head == null) {
          return;
        }
        String text = new String(head, StandardCharsets.ISO_8859_1);
        if (recordingHeads) {
          requestHeads.add(text);
        }
        if (errorsLeft.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
          answerError(client, text.startsWith("HEAD "), errorStatus, errorCode);
          return;
        }
        long delay = requestDelayMillis;
        if (delay > 0) {
          pause(delay);
        }
        if (!throttle.admit()) {
          answerError(client, text.startsWith("HEAD "), 503, "SlowDown");
          return;
        }
        forwardedRequests.incrementAndGet();
        if (isObjectGet(text)) {
          forwardedObjectGets.incrementAndGet();
        }
        if (connectionFault != null) {
          head = closingAfterResponse(text).getBytes(StandardCharsets.ISO_8859_1);
        }
        out.write(head);
        out.flush();
      }
    } catch (IOException e) {
      // One side closed; the try block closes the other.
    } finally {
      sockets.remove(client);
      sockets.remove(upstream);
    }
  }

  private void pumpResponses(Socket upstream, Socket client, ConnectionFault fault) {
    try (client;
        upstream) {
      InputStream in = upstream.getInputStream();
      OutputStream out = client.getOutputStream();
      byte[] buffer = new byte[8192];
      long forwarded = 0;
      long paceNanos = 0;
      int n;
      while ((n = in.read(buffer)) >= 0) {
        if (fault == ConnectionFault.STALL_BEFORE_HEADERS) {
          stallUntilClosed(client);
          return;
        }
        if (fault == ConnectionFault.SLOW_FIRST_BYTE && forwarded == 0) {
          pause(SLOW_FIRST_BYTE_MILLIS);
        }
        int allowed = n;
        boolean faultNow = false;
        if (fault == ConnectionFault.STALL_BODY
            || fault == ConnectionFault.CUT_FIN
            || fault == ConnectionFault.CUT_RST) {
          allowed = (int) Math.min(n, FAULT_AFTER_BYTES - forwarded);
          faultNow = forwarded + allowed >= FAULT_AFTER_BYTES;
        }
        Passage cut = cutFault.pass(allowed);
        Passage stall = stallFault.pass(cut.allowed());
        out.write(buffer, 0, stall.allowed());
        out.flush();
        forwarded += stall.allowed();
        bytesToClients.addAndGet(stall.allowed());
        paceNanos = pace(paceNanos, stall.allowed());
        if (stall.fire() || (faultNow && fault == ConnectionFault.STALL_BODY)) {
          stallUntilClosed(client);
          return;
        }
        if (cut.fire() || (faultNow && fault == ConnectionFault.CUT_RST)) {
          client.setSoLinger(true, 0);
          return;
        }
        if (faultNow && fault == ConnectionFault.CUT_FIN) {
          client.shutdownOutput();
          return;
        }
      }
    } catch (IOException e) {
      // One side closed; the try block closes the other.
    } finally {
      sockets.remove(client);
      sockets.remove(upstream);
    }
  }

  /**
   * Waits until {@code bytes} just sent fit the bandwidth limit, if any: {@code due} is when the
   * connection's earlier bytes were due (in {@link System#nanoTime()}); returns when these are.
   */
  private long pace(long due, int bytes) {
    long rate = bytesPerSecond;
    if (rate == 0 || bytes == 0) {
      return due;
    }
    long now = System.nanoTime();
    long next = Math.max(due, now) + bytes * 1_000_000_000L / rate;
    while (next - now > 0 && !closed) {
      LockSupport.parkNanos(next - now);
      if (Thread.interrupted()) {
        Thread.currentThread().interrupt();
        break;
      }
      now = System.nanoTime();
    }
    return next;
  }

  private void pause(long millis) {
    try {
      Thread.sleep(millis);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  private void stallUntilClosed(Socket client) {
    while (!closed && !client.isClosed()) {
      try {
        Thread.sleep(20);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }

  /** A token bucket of requests; see {@link #throttleAbove}. */
  private static final class Throttle {
    private final AtomicLong throttled = new AtomicLong();
    private double perSecond;
    private double tokens;
    private long refilledNanos;

    synchronized boolean admit() {
      if (perSecond == 0) {
        return true;
      }
      long now = System.nanoTime();
      tokens =
          Math.min(Math.max(1, perSecond / 10), tokens + (now - refilledNanos) * perSecond / 1e9);
      refilledNanos = now;
      if (tokens >= 1) {
        tokens -= 1;
        return true;
      }
      throttled.incrementAndGet();
      return false;
    }
  }

  /** How many bytes of a chunk may pass, and whether the fault fires after them. */
  private record Passage(int allowed, boolean fire) {}

  /** A fault armed to fire once a number of response bytes have passed. */
  private static final class Fault {
    private long remaining = -1;

    synchronized void arm(long bytes) {
      remaining = bytes;
    }

    synchronized Passage pass(int n) {
      if (remaining < 0) {
        return new Passage(n, false);
      }
      int allowed = (int) Math.min(remaining, n);
      remaining -= allowed;
      if (remaining == 0) {
        remaining = -1;
        return new Passage(allowed, true);
      }
      return new Passage(allowed, false);
    }
  }

  /** The request head with {@code Connection: close} in place of any connection header. */
  private static String closingAfterResponse(String head) {
    StringBuilder rewritten = new StringBuilder();
    for (String line : head.split("\r\n")) {
      if (!line.isEmpty() && !line.toLowerCase(java.util.Locale.ROOT).startsWith("connection:")) {
        rewritten.append(line).append("\r\n");
      }
    }
    return rewritten.append("Connection: close\r\n\r\n").toString();
  }

  private static void answerError(Socket client, boolean head, int status, String code)
      throws IOException {
    String body =
        "<?xml version=\"1.0\" encoding=\"UTF-8\"?><Error><Code>"
            + code
            + "</Code><Message>Injected by the fault proxy.</Message>"
            + "<RequestId>fault-proxy</RequestId></Error>";
    String response =
        "HTTP/1.1 "
            + status
            + " "
            + code
            + "\r\n"
            + "Content-Type: application/xml\r\n"
            + "x-amz-request-id: fault-proxy\r\n"
            + "Content-Length: "
            + (head ? 0 : body.length())
            + "\r\nConnection: close\r\n\r\n"
            + (head ? "" : body);
    OutputStream out = client.getOutputStream();
    out.write(response.getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  private static byte[] readHead(InputStream in) throws IOException {
    ByteArrayOutputStream head = new ByteArrayOutputStream();
    int matched = 0;
    int b;
    while ((b = in.read()) >= 0) {
      head.write(b);
      matched = b == HEAD_END[matched] ? matched + 1 : (b == HEAD_END[0] ? 1 : 0);
      if (matched == HEAD_END.length) {
        return head.toByteArray();
      }
    }
    return null;
  }

  private static void daemon(Runnable task, String name) {
    Thread thread = new Thread(task, name);
    thread.setDaemon(true);
    thread.start();
  }

  /** Closes every connection open now (clients see a reset); new ones are accepted as before. */
  public void dropConnections() {
    for (Socket socket : sockets) {
      try {
        socket.close();
      } catch (IOException ignored) {
        // Closing is all that is wanted; a socket already closed is fine.
      }
      sockets.remove(socket);
    }
  }

  @Override
  public void close() throws IOException {
    closed = true;
    server.close();
    for (Socket socket : sockets) {
      socket.close();
    }
  }
}
