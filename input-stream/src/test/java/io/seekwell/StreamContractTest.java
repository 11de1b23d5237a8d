package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.TestData;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;

/** Every line of the stream contract, on an in-memory object. */
class StreamContractTest {

  private static final S3URI URI = S3URI.of("bucket", "data/file.bin");
  private static final int LENGTH = 200_000;
  private static final byte[] CONTENT = TestData.randomBytes(3, LENGTH);

  private S3SeekableInputStreamFactory factory;
  private S3SeekableInputStream stream;

  @BeforeEach
  void open() throws IOException {
    InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
    store.put(ObjectLocation.of(URI.bucket(), URI.key()), CONTENT);
    factory = new S3SeekableInputStreamFactory(store, S3SeekableInputStreamConfiguration.DEFAULT);
    stream = factory.createStream(URI);
  }

  @AfterEach
  void close() {
    stream.close();
    factory.close();
  }

  @Test
  void readsAndPositions() throws IOException {
    assertEquals(LENGTH, stream.length());
    assertEquals(CONTENT[0] & 0xFF, stream.read());
    assertEquals(1, stream.getPos());
    byte[] buffer = new byte[100];
    assertEquals(100, stream.read(buffer, 0, 100));
    assertArrayEquals(Arrays.copyOfRange(CONTENT, 1, 101), buffer);
    assertEquals(0, stream.read(buffer, 0, 0));
    assertEquals(1000, stream.skip(1000));
    assertEquals(1101, stream.getPos());
    assertEquals(0, stream.skip(-5));
    assertTrue(stream.available() > 0);
  }

  @Test
  void seekOutsideTheObjectIsEof() throws IOException {
    EOFException negative = assertThrows(EOFException.class, () -> stream.seek(-1));
    assertTrue(negative.getMessage().contains(URI.toString()), negative.getMessage());
    EOFException beyond = assertThrows(EOFException.class, () -> stream.seek(LENGTH + 1));
    assertEquals(
        "Cannot seek to " + (LENGTH + 1) + ": " + URI + " has " + LENGTH + " bytes",
        beyond.getMessage());
    stream.seek(LENGTH);
    assertEquals(-1, stream.read());
    assertEquals(-1, stream.read(new byte[10], 0, 10));
    assertEquals(0, stream.available());
    assertEquals(0, stream.skip(10));
  }

  @Test
  void readAtTheEndReturnsMinusOneAfterAShortRead() throws IOException {
    stream.seek(LENGTH - 10);
    byte[] buffer = new byte[50];
    assertEquals(10, stream.read(buffer, 5, 50 - 5));
    assertArrayEquals(
        Arrays.copyOfRange(CONTENT, LENGTH - 10, LENGTH), Arrays.copyOfRange(buffer, 5, 15));
    assertEquals(-1, stream.read(buffer, 0, 1));
    assertEquals(LENGTH, stream.getPos());
  }

  @Test
  void positionalReadsLeaveThePositionAlone() throws IOException {
    stream.seek(500);
    byte[] buffer = new byte[1000];
    stream.readFully(150_000, buffer, 0, 1000);
    assertArrayEquals(Arrays.copyOfRange(CONTENT, 150_000, 151_000), buffer);
    assertEquals(500, stream.getPos());
    byte[] tail = new byte[8];
    assertEquals(8, stream.readTail(tail, 0, 8));
    assertArrayEquals(Arrays.copyOfRange(CONTENT, LENGTH - 8, LENGTH), tail);
    assertEquals(500, stream.getPos());
    stream.readFully(LENGTH - 4, buffer, 0, 4);
    stream.readFully(LENGTH, buffer, 0, 0);
  }

  @Test
  void positionalReadsPastTheEndAreEof() {
    byte[] buffer = new byte[100];
    EOFException past =
        assertThrows(EOFException.class, () -> stream.readFully(LENGTH - 50, buffer, 0, 100));
    assertEquals(
        "Cannot read 100 bytes at " + (LENGTH - 50) + ": " + URI + " has " + LENGTH + " bytes",
        past.getMessage());
    assertThrows(EOFException.class, () -> stream.readFully(-1, buffer, 0, 1));
    byte[] large = new byte[LENGTH + 1];
    assertThrows(EOFException.class, () -> stream.readTail(large, 0, LENGTH + 1));
  }

  @Test
  void badBufferBoundsAreIndexOutOfBounds() {
    byte[] buffer = new byte[10];
    List<Executable> calls =
        List.of(
            () -> stream.read(buffer, -1, 5),
            () -> stream.read(buffer, 0, 11),
            () -> stream.read(buffer, 6, 5),
            () -> stream.read(buffer, 0, -1),
            () -> stream.readFully(0, buffer, 8, 3),
            () -> stream.readTail(buffer, -1, 2),
            () -> stream.readTail(buffer, 0, 11));
    for (Executable call : calls) {
      assertThrows(IndexOutOfBoundsException.class, call);
    }
  }

  @Test
  void everyCallAfterCloseFailsAndCloseTwiceIsHarmless() {
    stream.close();
    stream.close();
    byte[] buffer = new byte[10];
    List<Executable> calls =
        List.of(
            stream::read,
            () -> stream.read(buffer, 0, 10),
            () -> stream.skip(1),
            stream::available,
            () -> stream.seek(0),
            stream::getPos,
            () -> stream.readFully(0, buffer, 0, 10),
            () -> stream.readTail(buffer, 0, 10),
            () ->
                stream.readVectored(List.of(ObjectRange.of(0, 10)), ByteBuffer::allocate, b -> {}));
    for (Executable call : calls) {
      IOException e = assertThrows(IOException.class, call);
      assertEquals("Stream is closed: " + URI, e.getMessage());
    }
  }

  @Test
  void vectoredReadsFillHeapAndDirectBuffers() throws Exception {
    List<ObjectRange> ranges =
        List.of(ObjectRange.of(190_000, 5000), ObjectRange.of(10, 100), ObjectRange.of(5000, 1));
    stream.seek(77);
    stream.readVectored(
        ranges, length -> ByteBuffer.wrap(new byte[length + 20], 7, length).slice(), b -> {});
    for (ObjectRange range : ranges) {
      ByteBuffer buffer = range.getByteBuffer().get();
      assertEquals(range.getLength(), buffer.remaining());
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      int from = (int) range.getOffset();
      assertArrayEquals(Arrays.copyOfRange(CONTENT, from, from + range.getLength()), bytes);
    }
    assertEquals(77, stream.getPos());

    List<ObjectRange> direct = List.of(ObjectRange.of(100, 300), ObjectRange.of(1000, 64));
    stream.readVectored(direct, ByteBuffer::allocateDirect, b -> {});
    for (ObjectRange range : direct) {
      ByteBuffer buffer = range.getByteBuffer().get();
      assertTrue(buffer.isDirect());
      byte[] bytes = new byte[buffer.remaining()];
      buffer.get(bytes);
      int from = (int) range.getOffset();
      assertArrayEquals(Arrays.copyOfRange(CONTENT, from, from + range.getLength()), bytes);
    }
  }

  @Test
  void vectoredReadValidatesRanges() throws Exception {
    IllegalArgumentException negative =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                stream.readVectored(List.of(ObjectRange.of(-1, 5)), ByteBuffer::allocate, b -> {}));
    assertTrue(negative.getMessage().contains(URI.toString()), negative.getMessage());
    assertThrows(
        IllegalArgumentException.class,
        () ->
            stream.readVectored(
                List.of(ObjectRange.of(100, 50), ObjectRange.of(120, 10)),
                ByteBuffer::allocate,
                b -> {}));

    List<ByteBuffer> released = new ArrayList<>();
    ObjectRange pastEnd = ObjectRange.of(LENGTH - 5, 10);
    ObjectRange fine = ObjectRange.of(0, 10);
    stream.readVectored(List.of(pastEnd, fine), ByteBuffer::allocate, released::add);
    ExecutionException e =
        assertThrows(ExecutionException.class, () -> pastEnd.getByteBuffer().get());
    assertInstanceOf(EOFException.class, e.getCause());
    assertEquals(10, fine.getByteBuffer().get().remaining());
    assertEquals(List.of(), released);
  }

  @Test
  void uriParsing() {
    assertEquals(S3URI.of("b", "k/x.parquet"), S3URI.parse("s3://b/k/x.parquet"));
    assertEquals(S3URI.of("b", "k"), S3URI.parse("s3a://b/k"));
    assertEquals(S3URI.of("b", "k"), S3URI.parse("S3N://b/k"));
    assertEquals("s3://b/k", S3URI.of("b", "k").toString());
    for (String bad : new String[] {"http://b/k", "s3://b", "s3://b/", "s3:///k", "b/k"}) {
      assertThrows(IllegalArgumentException.class, () -> S3URI.parse(bad), bad);
    }
  }

  @Test
  void missingObjectIsFileNotFoundAtOpen() {
    assertThrows(
        java.io.FileNotFoundException.class,
        () -> factory.createStream(S3URI.of("bucket", "missing")));
  }
}
