package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.seekwell.client.ObjectClientConfiguration;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.EOFException;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Random sequences of stream operations against a byte-array model, on an in-memory store with
 * random latency, a small memory limit (so blocks are evicted and reads go direct) and small
 * requests (so GETs are split). Any difference is a failure.
 */
class StreamModelPropertyTest {

  /** One operation on a stream, applied to both the stream and the model. */
  sealed interface Op permits Seek, ReadByte, Read, ReadFully, ReadTail, Skip, Vectored {}

  record Seek(long position) implements Op {}

  record ReadByte() implements Op {}

  record Read(int length) implements Op {}

  record ReadFully(long position, int length) implements Op {}

  record ReadTail(int length) implements Op {}

  record Skip(long count) implements Op {}

  record Vectored(List<long[]> ranges) implements Op {}

  @Provide
  Arbitrary<List<Op>> operations() {
    Arbitrary<Long> position = Arbitraries.longs().between(-10, 70_000);
    Arbitrary<Integer> length = Arbitraries.integers().between(0, 20_000);
    Arbitrary<Op> op =
        Arbitraries.oneOf(
            position.map(Seek::new),
            Arbitraries.just(new ReadByte()),
            length.map(Read::new),
            Combinators.combine(position, length).as(ReadFully::new),
            length.map(ReadTail::new),
            Arbitraries.longs().between(-5, 30_000).map(Skip::new),
            Combinators.combine(position, length)
                .as((p, l) -> new long[] {Math.max(0, p), l})
                .list()
                .ofMaxSize(4)
                .map(Vectored::new));
    return op.list().ofMinSize(1).ofMaxSize(25);
  }

  @Property(tries = 500)
  void streamBehavesLikeAByteArray(
      @ForAll @IntRange(min = 1, max = 65_000) int objectLength,
      @ForAll("operations") List<Op> operations,
      @ForAll boolean tightMemory,
      @ForAll boolean openByLength)
      throws Exception {
    byte[] content = TestData.randomBytes(objectLength, objectLength);
    InMemoryObjectClient memory = new InMemoryObjectClient(new Metrics());
    memory.put(ObjectLocation.of("b", "k"), content);
    ControllableObjectClient slow = new ControllableObjectClient(memory);
    slow.randomLatency(2);
    PhysicalIOConfiguration physicalIO = smallRequests(tightMemory);
    try (S3SeekableInputStreamFactory factory = factory(slow, physicalIO);
        S3SeekableInputStream stream =
            factory.createStream(
                S3URI.of("b", "k"),
                openByLength
                    ? OpenStreamInformation.builder().objectLength(objectLength).build()
                    : OpenStreamInformation.ofDefaults())) {
      applyAll(operations, stream, new Model(content));
    }
    assertEquals(0, memory.openContents(), "leaked bodies");
    assertEquals(openByLength ? 0 : 1, memory.heads().size());
  }

  /**
   * Small reads-ahead and GETs, so that GETs are split, and with {@code tightMemory} a limit that
   * makes blocks evicted and reads go direct.
   */
  static PhysicalIOConfiguration smallRequests(boolean tightMemory) {
    return PhysicalIOConfiguration.builder()
        .maxMemoryLimit(tightMemory ? 24 * 1024 : 1 << 20)
        .readAheadBytes(4096)
        .targetRequestSize(8192)
        .maxRequestSize(8192)
        .metadataCacheSize(100)
        .metadataCacheTtl(Duration.ofMinutes(1))
        .readTimeout(Duration.ofSeconds(30))
        .fetchThreads(4)
        .build();
  }

  /** Applies every operation to the stream and the model; a failure names the sequence. */
  static void applyAll(List<Op> operations, S3SeekableInputStream stream, Model model) {
    for (Op op : operations) {
      try {
        apply(op, stream, model);
        assertEquals(model.position, stream.getPos(), () -> "position after " + op);
      } catch (AssertionError | Exception e) {
        throw new AssertionError("Failed at " + op + " of " + operations, e);
      }
    }
  }

  /** A factory whose requests are not hedged: a machine that stalls would otherwise send two. */
  static S3SeekableInputStreamFactory factory(
      ObjectClient client, PhysicalIOConfiguration physicalIO) {
    return new S3SeekableInputStreamFactory(
        client,
        S3SeekableInputStreamConfiguration.builder()
            .physicalIO(physicalIO)
            .client(ObjectClientConfiguration.builder().hedgeMaxCopies(0).build())
            .build());
  }

  /** The expected behaviour: a byte array and a position. */
  static final class Model {
    final byte[] content;
    long position;

    Model(byte[] content) {
      this.content = content;
    }
  }

  static void apply(Op op, S3SeekableInputStream stream, Model model) throws Exception {
    byte[] content = model.content;
    int length = content.length;
    if (op instanceof Seek seek) {
      if (seek.position() < 0 || seek.position() > length) {
        assertThrows(EOFException.class, () -> stream.seek(seek.position()));
      } else {
        stream.seek(seek.position());
        model.position = seek.position();
      }
    } else if (op instanceof ReadByte) {
      int expected = model.position < length ? content[(int) model.position++] & 0xFF : -1;
      assertEquals(expected, stream.read());
    } else if (op instanceof Read read) {
      byte[] buffer = new byte[read.length() + 3];
      int n = stream.read(buffer, 3, read.length());
      int expected =
          read.length() == 0
              ? 0
              : model.position >= length
                  ? -1
                  : (int) Math.min(read.length(), length - model.position);
      assertEquals(expected, n, () -> op + " at " + model.position);
      if (n > 0) {
        assertArrayEquals(
            Arrays.copyOfRange(content, (int) model.position, (int) model.position + n),
            Arrays.copyOfRange(buffer, 3, 3 + n));
        model.position += n;
      }
    } else if (op instanceof ReadFully readFully) {
      byte[] buffer = new byte[readFully.length()];
      long at = readFully.position();
      if (readFully.length() > 0 && (at < 0 || at + readFully.length() > length)) {
        assertThrows(EOFException.class, () -> stream.readFully(at, buffer, 0, readFully.length()));
      } else if (at >= 0 && at + readFully.length() <= length) {
        stream.readFully(at, buffer, 0, readFully.length());
        assertArrayEquals(
            Arrays.copyOfRange(content, (int) at, (int) at + readFully.length()), buffer);
      }
    } else if (op instanceof ReadTail tail) {
      byte[] buffer = new byte[tail.length()];
      if (tail.length() > length) {
        assertThrows(EOFException.class, () -> stream.readTail(buffer, 0, tail.length()));
      } else {
        assertEquals(tail.length(), stream.readTail(buffer, 0, tail.length()));
        assertArrayEquals(Arrays.copyOfRange(content, length - tail.length(), length), buffer);
      }
    } else if (op instanceof Skip skip) {
      long expected = skip.count() <= 0 ? 0 : Math.min(skip.count(), length - model.position);
      assertEquals(expected, stream.skip(skip.count()));
      model.position += expected;
    } else if (op instanceof Vectored vectored) {
      applyVectored(vectored, stream, content);
    }
  }

  private static void applyVectored(Vectored vectored, S3SeekableInputStream stream, byte[] content)
      throws Exception {
    List<ObjectRange> ranges = new ArrayList<>();
    long next = 0;
    for (long[] range : vectored.ranges()) {
      long offset = Math.max(range[0], next);
      ranges.add(ObjectRange.of(offset, (int) range[1]));
      next = offset + range[1];
    }
    stream.readVectored(ranges, ByteBuffer::allocate, buffer -> {});
    for (ObjectRange range : ranges) {
      long end = range.getOffset() + range.getLength();
      if (end > content.length) {
        assertThrows(Exception.class, () -> range.getByteBuffer().get());
        continue;
      }
      ByteBuffer buffer = range.getByteBuffer().get();
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      assertArrayEquals(
          Arrays.copyOfRange(content, (int) range.getOffset(), (int) end), bytes, range::toString);
    }
  }
}
