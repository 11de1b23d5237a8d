package io.seekwell.physical.disk;

import static java.nio.file.StandardOpenOption.WRITE;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.seekwell.testing.TestData;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadInfo;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.LongConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** One object's files, written the way the tier does where the file system refuses direct I/O. */
class DiskObjectTest {

  private static final int LENGTH = 20 * GranuleIndex.GRANULE + 1234;
  private static final int ALIGNMENT = 4096;

  @TempDir Path directory;

  private final byte[] content = TestData.randomBytes(11, LENGTH);

  @Test
  void granulesWrittenThroughThePageCacheReadBackAfterARestart() throws IOException {
    DiskObject written = loaded(false, delta -> {});
    assertEquals(LENGTH, writeAll(written));
    assertArrayEquals(content, readAll(written));
    written.unmap();

    DiskObject reloaded = loaded(true, delta -> {});
    assertArrayEquals(content, readAll(reloaded));
    reloaded.remove();
  }

  /**
   * A reader that finds a bad granule while the object is being removed (the removal has counted
   * its bytes gone and not yet marked it removed) must not take the granule's bytes off the tier a
   * second time.
   */
  @Test
  void aBadGranuleFoundWhileTheObjectIsRemovedIsNotSubtractedTwice() throws Exception {
    AtomicLong tierBytes = new AtomicLong();
    AtomicReference<Thread> remover = new AtomicReference<>();
    CountDownLatch removalCounted = new CountDownLatch(1);
    CountDownLatch goOn = new CountDownLatch(1);
    DiskObject object =
        loaded(
            false,
            delta -> {
              tierBytes.addAndGet(delta);
              if (Thread.currentThread() == remover.get()) {
                removalCounted.countDown();
                awaitOrFail(goOn);
              }
            });
    writeAll(object);
    assertEquals(LENGTH, tierBytes.get());
    byte[] corrupt = new byte[100];
    for (int i = 0; i < corrupt.length; i++) {
      corrupt[i] = (byte) ~content[i];
    }
    try (FileChannel data = FileChannel.open(directory.resolve("object.data"), WRITE)) {
      data.write(ByteBuffer.wrap(corrupt), 0);
    }

    CompletableFuture<Void> removal = new CompletableFuture<>();
    Thread removing = new Thread(() -> complete(removal, object::remove), "remover");
    remover.set(removing);
    removing.start();
    assertTrue(removalCounted.await(1, TimeUnit.MINUTES), "the removal counted the bytes gone");

    CompletableFuture<Void> badRead = new CompletableFuture<>();
    AtomicInteger bad = new AtomicInteger();
    byte[] granule = new byte[GranuleIndex.GRANULE];
    Thread reading =
        new Thread(
            () ->
                complete(
                    badRead,
                    () -> object.read(0, granule, 0, granule.length, bad::incrementAndGet)),
            "reader");
    reading.start();
    // Let the removal go on once the reader is done, or waits for the object's monitor.
    while (!badRead.isDone() && !blockedOn(reading, object)) {
      Thread.yield();
    }
    goOn.countDown();
    removal.get(1, TimeUnit.MINUTES);
    badRead.get(1, TimeUnit.MINUTES);

    assertEquals(1, bad.get(), "the bad granule was found");
    assertEquals(0, tierBytes.get(), "bytes the tier counts for the removed object");
  }

  /** An action that may throw. */
  private interface Action {
    void run() throws IOException;
  }

  private static void complete(CompletableFuture<Void> done, Action action) {
    try {
      action.run();
      done.complete(null);
    } catch (IOException | RuntimeException e) {
      done.completeExceptionally(e);
    }
  }

  private static void awaitOrFail(CountDownLatch latch) {
    try {
      if (!latch.await(1, TimeUnit.MINUTES)) {
        throw new IllegalStateException("the test never let the removal go on");
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    }
  }

  /** Whether {@code thread} waits to enter the monitor of {@code object}. */
  private static boolean blockedOn(Thread thread, Object object) {
    ThreadInfo info = ManagementFactory.getThreadMXBean().getThreadInfo(thread.getId());
    return info != null
        && info.getThreadState() == Thread.State.BLOCKED
        && info.getLockInfo() != null
        && info.getLockInfo().getIdentityHashCode() == System.identityHashCode(object);
  }

  /**
   * Writes every granule of the object, each given in two parts as it is when two blocks hold it,
   * the way the tier does where the file system refuses direct I/O; returns the bytes written.
   */
  private long writeAll(DiskObject object) throws IOException {
    Map<Integer, List<ByteBuffer>> granules = new LinkedHashMap<>();
    for (int granule = 0; GranuleIndex.startOf(granule) < LENGTH; granule++) {
      int start = (int) GranuleIndex.startOf(granule);
      int half = object.index().lengthOf(granule) / 2;
      granules.put(
          granule,
          List.of(
              ByteBuffer.wrap(content, start, half),
              ByteBuffer.wrap(content, start + half, object.index().lengthOf(granule) - half)));
    }
    ByteBuffer staging =
        ByteBuffer.allocateDirect(DiskObject.MAX_RUN + 2 * ALIGNMENT).alignedSlice(ALIGNMENT);
    return object.write(granules, new DataFileWriter.Staging(staging, ALIGNMENT, false));
  }

  private DiskObject loaded(boolean listed, LongConsumer sizeChanges) throws IOException {
    DiskObject object =
        new DiskObject(
            directory.resolve("object.data"),
            directory.resolve("object.index"),
            listed,
            0,
            sizeChanges);
    assertTrue(object.load("the object", LENGTH, () -> fail("not foreign")));
    return object;
  }

  private byte[] readAll(DiskObject object) throws IOException {
    byte[] bytes = new byte[LENGTH];
    int done = 0;
    while (done < LENGTH) {
      int n =
          object.read(
              GranuleIndex.granuleOf(done),
              bytes,
              done,
              LENGTH - done,
              () -> fail("a bad granule"));
      assertTrue(n > 0, "stored from " + done);
      done += n;
    }
    return bytes;
  }
}
