package io.seekwell.iceberg;

import io.seekwell.common.metrics.MetricsSnapshot;
import java.util.Iterator;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.io.BulkDeletionFailureException;
import org.apache.iceberg.io.InputFile;
import org.apache.iceberg.io.OutputFile;
import org.apache.iceberg.util.SerializableSupplier;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Iceberg's {@link S3FileIO} whose input files read through Seekwell: enable it with the catalog
 * property {@code io-impl=io.seekwell.iceberg.SeekwellS3FileIO}. Writes, deletes, listing, clients
 * and credentials stay Iceberg's; reads use the S3 client Iceberg built for the file's location,
 * with Seekwell's caching, read-ahead, Parquet footer prefetch and coalesced vectored reads.
 *
 * <p>Writes, overwrites, deletes and recoveries through this FileIO make Seekwell forget what it
 * cached of the location as soon as they are done, so this FileIO never answers {@code exists()}, a
 * length or bytes from before them. Changes made by other writers are seen once the cached metadata
 * expires ({@code seekwell.physicalio.metadata.cache.ttl}), or at once when a GET finds that the
 * version it read changed.
 *
 * <p>Seekwell settings come from the catalog properties under {@code seekwell.} (for example {@code
 * seekwell.physicalio.max.memory.limit=512MB}); SSE-C comes from Iceberg's own {@code
 * s3.sse.type=custom} and {@code s3.sse.key}. One Seekwell factory (and cache) serves every stream
 * read with the same S3 client; closing the FileIO closes them. Thread-safe, like {@link S3FileIO}.
 */
public class SeekwellS3FileIO extends S3FileIO {

  private static final long serialVersionUID = 1L;

  private transient volatile SeekwellReads reads;

  /** For {@code io-impl}: configured by {@link #initialize(Map)}. */
  public SeekwellS3FileIO() {}

  /** Over the S3 client {@code s3} supplies; {@link #initialize(Map)} still applies properties. */
  public SeekwellS3FileIO(SerializableSupplier<S3Client> s3) {
    super(s3);
  }

  /** Over the clients {@code s3} and {@code s3Async} supply. */
  public SeekwellS3FileIO(
      SerializableSupplier<S3Client> s3, SerializableSupplier<S3AsyncClient> s3Async) {
    super(s3, s3Async);
  }

  /**
   * Applies Iceberg's properties, then checks the {@code seekwell.} ones.
   *
   * @throws IllegalArgumentException naming the key, for a Seekwell setting that cannot be used
   */
  @Override
  public void initialize(Map<String, String> properties) {
    super.initialize(properties);
    closeReads();
    reads = new SeekwellReads(properties);
  }

  @Override
  public InputFile newInputFile(String path) {
    return new SeekwellInputFile(path, -1, reads(), client(path));
  }

  /** A file whose length Iceberg knows (from a manifest): its streams send no HEAD. */
  @Override
  public InputFile newInputFile(String path, long length) {
    return new SeekwellInputFile(path, length, reads(), client(path));
  }

  /** Iceberg's output file, whose streams make Seekwell forget the location once written. */
  @Override
  public OutputFile newOutputFile(String path) {
    return new SeekwellOutputFile(super.newOutputFile(path), this);
  }

  /** Deletes the object, then forgets what Seekwell cached of it. */
  @Override
  public void deleteFile(String path) {
    try {
      super.deleteFile(path);
    } finally {
      forget(path);
    }
  }

  /**
   * Deletes the objects as Iceberg does (in batches), then forgets what Seekwell cached of each,
   * those that failed to delete included. {@link #deletePrefix} comes here too.
   */
  @Override
  public void deleteFiles(Iterable<String> paths) throws BulkDeletionFailureException {
    Queue<String> passed = new ConcurrentLinkedQueue<>();
    try {
      super.deleteFiles(
          () -> {
            Iterator<String> each = paths.iterator();
            return new Iterator<>() {
              @Override
              public boolean hasNext() {
                return each.hasNext();
              }

              @Override
              public String next() {
                String path = each.next();
                passed.add(path);
                return path;
              }
            };
          });
    } finally {
      passed.forEach(this::forget);
    }
  }

  /**
   * Restores the object's last version as Iceberg does, then forgets what Seekwell cached of it.
   */
  @Override
  public boolean recoverFile(String path) {
    try {
      return super.recoverFile(path);
    } finally {
      forget(path);
    }
  }

  /**
   * Forgets the cached length, version and bytes of {@code path} in every Seekwell factory of this
   * FileIO, before it returns.
   */
  void forget(String path) {
    reads().forget(path);
  }

  /**
   * Seekwell's counters for this FileIO's reads, added up over its factories: GETs, bytes, retries,
   * hedged GETs, hedges that won, stalled bodies cut, bodies resumed. Iceberg's own metrics context
   * for S3 (Hadoop's {@code FileSystem.Statistics}) counts bytes and operations only, so these are
   * reported here.
   */
  public MetricsSnapshot seekwellMetrics() {
    return reads().seekwellMetrics();
  }

  /** Closes the Seekwell factories (dropping their caches), then Iceberg's clients. */
  @Override
  public void close() {
    closeReads();
    super.close();
  }

  private SeekwellReads reads() {
    SeekwellReads current = reads;
    if (current == null) {
      synchronized (this) {
        // After deserialization (on a Spark executor), settings come from the properties.
        if (reads == null) {
          reads = new SeekwellReads(properties());
        }
        current = reads;
      }
    }
    return current;
  }

  private synchronized void closeReads() {
    if (reads != null) {
      reads.close();
      reads = null;
    }
  }
}
