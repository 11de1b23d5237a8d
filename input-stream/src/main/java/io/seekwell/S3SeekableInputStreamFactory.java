package io.seekwell;

import io.seekwell.client.RetryingObjectClient;
import io.seekwell.client.S3SdkObjectClient;
import io.seekwell.client.S3SyncSdkObjectClient;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.common.object.MeteredObjectClient;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.logical.FormatPlugin;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.ObjectReader;
import io.seekwell.physical.PhysicalIO;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Opens {@link S3SeekableInputStream}s over S3 objects. Thread-safe: one factory serves many
 * streams on many threads, and they share its metadata cache and its memory-bounded block cache.
 *
 * <p>The factory owns the {@link ObjectClient} it is given or builds, and {@link #close()} closes
 * it, stops every thread the factory started and drops every cached byte. An AWS SDK client passed
 * to a convenience constructor stays the caller's and is not closed.
 */
public final class S3SeekableInputStreamFactory implements AutoCloseable {

  private final ObjectClient client;
  private final Metrics metrics;
  private final PhysicalIO physicalIO;
  private final ReadStrategySelector strategies;
  private final VectoredReads vectored;
  private final S3SeekableInputStreamConfiguration configuration;
  private volatile boolean closed;

  /**
   * A factory reading through {@code client}. Its metrics count the requests the factory makes
   * through the client (retries inside the client are the client's own).
   */
  public S3SeekableInputStreamFactory(
      ObjectClient client, S3SeekableInputStreamConfiguration configuration) {
    this(new Metrics(), client, configuration, false);
  }

  /**
   * A factory over an {@link S3AsyncClient} built with the Netty HTTP client, with Seekwell's
   * retries. For the CRT client, which retries by itself, wrap it in an {@code S3SdkObjectClient}
   * and use {@link #S3SeekableInputStreamFactory(ObjectClient,
   * S3SeekableInputStreamConfiguration)}.
   */
  public S3SeekableInputStreamFactory(
      S3AsyncClient s3, S3SeekableInputStreamConfiguration configuration) {
    this(new Metrics(), new S3SdkObjectClient(s3, configuration.client()), configuration, true);
  }

  /** A factory over a blocking {@link S3Client}, with Seekwell's retries. */
  public S3SeekableInputStreamFactory(
      S3Client s3, S3SeekableInputStreamConfiguration configuration) {
    this(new Metrics(), new S3SyncSdkObjectClient(s3, configuration.client()), configuration, true);
  }

  private S3SeekableInputStreamFactory(
      Metrics metrics,
      ObjectClient client,
      S3SeekableInputStreamConfiguration configuration,
      boolean withRetries) {
    Objects.requireNonNull(client, "client");
    this.configuration = Objects.requireNonNull(configuration, "configuration");
    this.metrics = metrics;
    ObjectClient metered = new MeteredObjectClient(client, metrics);
    this.client =
        withRetries ? new RetryingObjectClient(metered, configuration.client(), metrics) : metered;
    this.physicalIO = new PhysicalIO(this.client, configuration.physicalIO(), metrics);
    this.strategies = new ReadStrategySelector(configuration);
    this.vectored =
        new VectoredReads(physicalIO::mergeGap, configuration.physicalIO().readTimeout().toNanos());
  }

  /** Opens a stream over {@code uri}, asking the store for its length and ETag. */
  public S3SeekableInputStream createStream(S3URI uri) throws IOException {
    return createStream(uri, OpenStreamInformation.ofDefaults());
  }

  /**
   * Opens a stream over {@code uri}. With {@link OpenStreamInformation#objectMetadata()} or {@link
   * OpenStreamInformation#objectLength()} set no HEAD is sent; otherwise one HEAD is shared by
   * every concurrent open of the same object.
   *
   * @throws java.io.FileNotFoundException if the object does not exist
   */
  public S3SeekableInputStream createStream(S3URI uri, OpenStreamInformation information)
      throws IOException {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(information, "information");
    if (closed) {
      throw new IOException("The stream factory is closed");
    }
    FetchContext context =
        new FetchContext(
            information.requestOptions(),
            range -> information.requestCallback().onGetRequest(uri, range));
    ObjectReader reader =
        information.objectMetadata().isEmpty() && information.objectLength().isPresent()
            ? physicalIO.open(uri.location(), information.objectLength().getAsLong(), context)
            : physicalIO.open(uri.location(), metadata(uri, information), context);
    try {
      Prefetcher prefetcher = new ReaderPrefetcher(uri, reader);
      strategies.prefetchSmallObject(information.inputPolicy(), prefetcher);
      ReadStrategy strategy = strategies.select(uri, information.inputPolicy(), prefetcher);
      strategy.onOpen();
      return new S3SeekableInputStream(uri, reader, strategy, vectored);
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  private ObjectMetadata metadata(S3URI uri, OpenStreamInformation information) throws IOException {
    if (information.objectMetadata().isPresent()) {
      return information.objectMetadata().get();
    }
    long timeout = configuration.physicalIO().readTimeout().toNanos();
    try {
      return physicalIO
          .metadata(
              uri.location(),
              information.requestOptions(),
              () -> information.requestCallback().onHeadRequest(uri))
          .get(timeout, TimeUnit.NANOSECONDS);
    } catch (ExecutionException e) {
      Throwable cause = e.getCause();
      throw cause instanceof IOException io ? io : new IOException(cause.getMessage(), cause);
    } catch (TimeoutException e) {
      throw new InterruptedIOException("No metadata in time for " + uri);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new InterruptedIOException("Interrupted while opening " + uri);
    }
  }

  /**
   * The length and ETag of {@code uri}: cached, or from one HEAD shared with concurrent callers.
   *
   * @throws java.io.FileNotFoundException if the object does not exist
   */
  public ObjectMetadata metadata(S3URI uri) throws IOException {
    Objects.requireNonNull(uri, "uri");
    return metadata(uri, OpenStreamInformation.ofDefaults());
  }

  /** The factory's counters: requests, bytes, retries, errors. */
  public MetricsSnapshot getMetrics() {
    return metrics.snapshot();
  }

  /** The format plug-in of type {@code type}, if one was found on the class path. */
  public <T extends FormatPlugin> Optional<T> formatPlugin(Class<T> type) {
    return strategies.plugin(type);
  }

  /** Bytes of block memory reserved now and at most so far; for monitoring and tests. */
  public MemoryUsage getMemoryUsage() {
    return new MemoryUsage(
        physicalIO.memoryUsed(),
        physicalIO.memoryHighWaterMark(),
        configuration.physicalIO().maxMemoryLimit());
  }

  /** How many objects have state in the factory (open streams or cached bytes). */
  int trackedObjects() {
    return physicalIO.trackedObjects();
  }

  /**
   * Block memory of a factory.
   *
   * @param used bytes held or in flight now
   * @param highWaterMark the most bytes held or in flight at once so far
   * @param limit the bound both never exceed
   */
  public record MemoryUsage(long used, long highWaterMark, long limit) {}

  /** Closes the object client, stops the factory's threads and drops its cached bytes. */
  @Override
  public void close() {
    if (closed) {
      return;
    }
    closed = true;
    strategies.close();
    physicalIO.close();
    client.close();
  }
}
