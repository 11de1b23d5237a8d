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
 * s3.sse.type=custom} and {@code s3.sse.key}.
 *
 * <p>One Seekwell factory (and cache, and memory limit) serves every stream read with the same
 * client: Iceberg's default client, or a storage credential's. The copies of a FileIO in one JVM
 * (those an engine deserializes on a worker, one per table and query) share its factories, so that
 * a query finds what the queries before it cached ({@link SharedReads}). Closing the last copy in a
 * JVM closes them; a copy whose clients they read with keeps its clients open until then. Copies
 * share only when this class is the catalog's {@code io-impl}: a {@code ResolvingFileIO} makes a
 * new FileIO (and so new factories) in each of its copies. Thread-safe, like {@link S3FileIO}.
 */
public class SeekwellS3FileIO extends S3FileIO {

  private static final long serialVersionUID = 1L;

  // Serialized: the copies of this FileIO in a JVM share their reads by it.
  private volatile String readsIdentity = SharedReads.newIdentity();
  private transient volatile SeekwellReads reads;
  private transient volatile boolean closed;

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
    // The clients this FileIO lent to its earlier reads now serve the new ones: those closing
    // (with their last copy) leave them open (see closeLentClients).
    leaveReads();
    readsIdentity = SharedReads.newIdentity();
    reads();
  }

  @Override
  public InputFile newInputFile(String path) {
    return newInputFile(path, -1);
  }

  /** A file whose length Iceberg knows (from a manifest): its streams send no HEAD. */
  @Override
  public InputFile newInputFile(String path, long length) {
    SeekwellReads current = reads();
    return new SeekwellInputFile(path, length, current, current.factory(path, this));
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
   * Seekwell's counters for the reads of this FileIO and of its copies in this JVM, added up over
   * their factories: GETs, bytes, retries, hedged GETs, hedges that won, stalled bodies cut, bodies
   * resumed. Iceberg's own metrics context for S3 (Hadoop's {@code FileSystem.Statistics}) counts
   * bytes and operations only, so these are reported here.
   */
  public MetricsSnapshot seekwellMetrics() {
    return reads().seekwellMetrics();
  }

  /**
   * Leaves the Seekwell factories this FileIO's copies share (the last copy in the JVM closes them,
   * dropping their caches), then closes Iceberg's clients, unless other copies still read with
   * them: those close with the last copy. A closed FileIO opens no more input files.
   */
  @Override
  public void close() {
    closed = true;
    if (leaveReads()) {
      super.close();
    }
  }

  /**
   * Closes the clients this copy lent to the factories its copies shared as {@code identity}, now
   * closed, unless this FileIO was initialized anew since: its clients then serve its new reads.
   */
  void closeLentClients(String identity) {
    if (identity.equals(readsIdentity)) {
      super.close();
    }
  }

  private SeekwellReads reads() {
    SeekwellReads current = reads;
    if (current == null) {
      synchronized (this) {
        if (closed) {
          throw new IllegalStateException("The FileIO is closed");
        }
        // After deserialization (on a Spark executor), settings come from the properties.
        if (reads == null) {
          if (readsIdentity == null) {
            // Serialized by a version before copies shared their reads.
            readsIdentity = SharedReads.newIdentity();
          }
          reads = SharedReads.join(readsIdentity, properties());
        }
        current = reads;
      }
    }
    return current;
  }

  /**
   * Leaves the reads this copy joined, if any; returns whether its clients may close now (false
   * while other copies read with a client it lent).
   */
  private boolean leaveReads() {
    SeekwellReads left;
    synchronized (this) {
      left = reads;
      reads = null;
    }
    return left == null || SharedReads.leave(readsIdentity, left, this);
  }
}
