package io.seekwell.physical.disk;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.physical.ObjectReader;
import io.seekwell.physical.PhysicalIO;
import io.seekwell.testing.InMemoryObjectClient;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The disk tier survives its process being killed while it writes: a child JVM ({@link
 * DiskTierCrashWriter}) reads and writes without pause and is killed ({@code destroyForcibly}) at a
 * random point, again and again, each time followed by a new JVM on the same directory. Every byte
 * every process serves is the object's, each new process takes over the dead one's slot (the only
 * one), and at the end what the directory holds is readable and within its bound. {@code
 * -Dseekwell.crash.kills=N} runs more kills than the default 12.
 */
class DiskTierCrashTest {

  private static final int KILLS = Integer.getInteger("seekwell.crash.kills", 12);

  @TempDir Path directory;

  @Test
  void aWriterKilledAtRandomPointsNeverLeavesAWrongByteNorItsSlotBehind() throws Exception {
    Random random = new Random(20261126);
    long[] totals = new long[3]; // served from disk, written to it, granules found bad
    for (int kill = 0; kill < KILLS; kill++) {
      List<String> said = runUntilKilled(kill, 5 + random.nextInt(400));
      assertEquals(
          "ready 0", said.get(0), "after " + kill + " kills the new process uses the tier");
      for (String line : said) {
        assertTrue(line.startsWith("ready") || line.startsWith("read "), kill + ": " + line);
      }
      String last = said.get(said.size() - 1);
      if (last.startsWith("read ")) {
        String[] counts = last.split(" ");
        for (int i = 0; i < totals.length; i++) {
          totals[i] += Long.parseLong(counts[i + 1]);
        }
      }
    }
    System.out.printf(
        "%d kills: %,d bytes served from disk, %,d written, %d granules found bad and fetched%n",
        KILLS, totals[0], totals[1], totals[2]);
    assertTrue(totals[1] > 0, "the processes wrote to the tier");
    assertTrue(totals[0] > 0, "the processes after the first read what the dead ones wrote");
    readEveryObjectOnceMore();
    assertNothingUnreadableAndWithinTheBound();
  }

  /**
   * Starts a writer and kills it once it has said {@code reads} reads (or when it ends by itself,
   * which only a wrong byte makes it do); returns what it said.
   */
  private List<String> runUntilKilled(int seed, int reads) throws Exception {
    Process process =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m",
                "-cp",
                System.getProperty("java.class.path"),
                DiskTierCrashWriter.class.getName(),
                directory.toString(),
                Integer.toString(seed))
            .redirectError(ProcessBuilder.Redirect.INHERIT)
            .start();
    BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    Thread listener = new Thread(() -> forward(process, lines), "crash-writer-output");
    listener.start();
    List<String> said = new ArrayList<>();
    try {
      while (said.stream().filter(line -> line.startsWith("read ")).count() < reads) {
        String line = lines.poll(2, TimeUnit.MINUTES);
        assertTrue(line != null, "the writer said nothing for 2 minutes after: " + said);
        if (line.equals(END)) {
          break;
        }
        said.add(line);
      }
    } finally {
      process.destroyForcibly();
      assertTrue(process.waitFor(1, TimeUnit.MINUTES), "the killed writer ended");
      listener.join(TimeUnit.MINUTES.toMillis(1));
    }
    // What it said between the last line read and the kill.
    lines.drainTo(said);
    said.remove(END);
    return said;
  }

  private static final String END = "\0end";

  private static void forward(Process process, BlockingQueue<String> lines) {
    try (BufferedReader output =
        new BufferedReader(
            new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
      for (String line = output.readLine(); line != null; line = output.readLine()) {
        lines.add(line);
      }
    } catch (IOException e) {
      // The stream of a killed process may end with an error: it ended.
    } finally {
      lines.add(END);
    }
  }

  /** This JVM too opens the directory after the last kill and reads every object whole. */
  private void readEveryObjectOnceMore() throws IOException {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    List<String> etags = new ArrayList<>();
    for (int i = 0; i < DiskTierCrashWriter.OBJECTS; i++) {
      etags.add(store.put(DiskTierCrashWriter.location(i), DiskTierCrashWriter.content(i)));
    }
    Metrics metrics = new Metrics();
    try (PhysicalIO io =
        new PhysicalIO(
            store,
            DiskTierCrashWriter.configuration(),
            DiskTierCrashWriter.disk(directory),
            new DiskCaches(),
            metrics,
            Ticker.system())) {
      assertEquals(0, metrics.get(Metric.DISK_UNAVAILABLE));
      int length = DiskTierCrashWriter.OBJECT_LENGTH;
      for (int i = 0; i < DiskTierCrashWriter.OBJECTS; i++) {
        byte[] bytes = new byte[length];
        try (ObjectReader reader =
            io.open(
                DiskTierCrashWriter.location(i),
                ObjectMetadata.of(length, etags.get(i)),
                DiskTierCrashWriter.IMMUTABLE)) {
          for (int done = 0; done < length; ) {
            done += reader.read(done, bytes, done, length - done);
          }
        }
        assertArrayEquals(DiskTierCrashWriter.content(i), bytes, "object " + i);
      }
      assertTrue(metrics.get(Metric.DISK_BYTES_READ) > 0, "the last kill left bytes to read");
    }
  }

  /** The bytes of the granules {@code index} lists, read as the tier reads it. */
  private static long listedBytes(Path index) throws IOException {
    byte[] stored = Files.readAllBytes(index);
    ByteBuffer header = ByteBuffer.wrap(stored);
    int magic = "SEEKWELL-DISK-1\n".length();
    int nameLength = header.getInt(magic);
    GranuleIndex granules = new GranuleIndex(header.getLong(magic + 4 + nameLength));
    granules.readRecords(stored, magic + 4 + nameLength + 8 + 4);
    return granules.listedBytes();
  }

  /**
   * The slot holds only its lock file, the marks of processes that died holding it (deleted once
   * stale), and objects whose data has an index, whose indexes list granules within the bound.
   */
  private void assertNothingUnreadableAndWithinTheBound() throws IOException {
    Path slot = directory.resolve(DiskCache.SLOT_PREFIX + 0);
    long listedBytes = 0;
    int marks = 0;
    try (Stream<Path> files = Files.list(slot)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.endsWith(".index")) {
          listedBytes += listedBytes(file);
        } else if (name.endsWith(".data")) {
          assertTrue(
              Files.exists(slot.resolve(name.replace(".data", ".index"))), name + " has no index");
        } else if (name.startsWith(".held-by-")) {
          marks++;
        } else {
          assertEquals(".lock", name, "a file the tier does not know");
        }
      }
    }
    assertTrue(marks <= KILLS, marks + " marks of dead processes");
    assertTrue(
        listedBytes <= DiskTierCrashWriter.SLOT_BYTES,
        listedBytes + " bytes listed, more than the slot's bound");
  }
}
