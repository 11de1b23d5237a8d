package io.seekwell;

import io.seekwell.client.RetryingObjectClient;
import io.seekwell.client.S3SdkObjectClient;
import io.seekwell.client.S3SyncSdkObjectClient;
import io.seekwell.common.concurrent.Futures;
import io.seekwell.common.concurrent.Scheduler;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.metrics.MetricsSnapshot;
import io.seekwell.common.object.MeteredObjectClient;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.logical.Prefetcher;
import io.seekwell.logical.ReadStrategy;
import io.seekwell.physical.FetchContext;
import io.seekwell.physical.ObjectReader;
import io.seekwell.physical.PhysicalIO;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Opens {@link S3SeekableInputStream}s over S3 objects. Thread-safe: one factory serves many
 * streams on many threads, and they share its metadata cache and its memory-bounded block cache.
 *
 * <p>The factory owns the {@link ObjectClient} it is given or builds, and {@link #close()} closes
 * it, stops every thread the factory started and drops every cached byte; a constructor that throws
 * closes them too. An AWS SDK client passed to a convenience constructor stays the caller's and is
 * not closed.
 *
 * <p>With a disk tier ({@code physicalio.disk.cache.dir}), a factory given a {@link DiskCacheScope}
 * shares its directory's disk cache with the other factories of that scope, and leaves it when it
 * closes (the last one closes it); the scope stays the caller's. A factory given none has a scope,
 * and so a cache in a slot of the directory, of its own, closed with the factory.
 */
public final class S3SeekableInputStreamFactory implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(S3SeekableInputStreamFactory.class);

  /** Every factory's counters, added up: what {@link #jvmMetrics()} reads. */
  private static final Metrics JVM_METRICS = new Metrics();

  private final RetryingObjectClient client;

  private final Metrics metrics;
  private final PhysicalIO physicalIO;
  private final ReadStrategySelector strategies;
  private final VectoredReads vectored;
  private final S3SeekableInputStreamConfiguration configuration;
  private final Map<S3URI, Announcement.Entry> announced = new ConcurrentHashMap<>();
  private final AnnouncementSettings announcementSettings;
  private volatile boolean closed;

  /**
   * A factory reading through {@code client}, behind Seekwell's resilience layer ({@link
   * RetryingObjectClient}: retries, hedged GETs, stall detection, resumed bodies). For a client
   * whose SDK retries by itself (CRT), set {@code client.retry.max.attempts=1}: cut bodies are
   * still resumed. Its metrics count every request sent, retries and hedges included.
   */
  public S3SeekableInputStreamFactory(
      ObjectClient client, S3SeekableInputStreamConfiguration configuration) {
    this(client, configuration, new DiskCacheScope());
  }

  /**
   * As {@link #S3SeekableInputStreamFactory(ObjectClient, S3SeekableInputStreamConfiguration)},
   * sharing disk caches within {@code diskCaches} (see the class's notes).
   */
  public S3SeekableInputStreamFactory(
      ObjectClient client,
      S3SeekableInputStreamConfiguration configuration,
      DiskCacheScope diskCaches) {
    this(
        client,
        configuration,
        diskCaches,
        Scheduler.daemon("seekwell-retry-scheduler-"),
        Ticker.system());
  }

  /**
   * As {@link #S3SeekableInputStreamFactory(ObjectClient, S3SeekableInputStreamConfiguration,
   * DiskCacheScope)}, with the timer and the time the caller gives (tests move time themselves).
   * The factory closes {@code scheduler}.
   */
  S3SeekableInputStreamFactory(
      ObjectClient client,
      S3SeekableInputStreamConfiguration settings,
      DiskCacheScope diskCaches,
      Scheduler scheduler,
      Ticker ticker) {
    Objects.requireNonNull(client, "client");
    Objects.requireNonNull(diskCaches, "diskCaches");
    Objects.requireNonNull(settings, "configuration");
    this.metrics = new Metrics(JVM_METRICS);
    ReadStrategySelector selector = null;
    RetryingObjectClient retrying = null;
    try {
      // The JVM's budget is sized here by the first factory: a bad seekwell.memory.limit fails it.
      this.configuration = withinJvmBudget(settings);
      selector = new ReadStrategySelector(configuration, metrics);
      retrying =
          new RetryingObjectClient(
              new MeteredObjectClient(client, metrics),
              configuration.client(),
              metrics,
              scheduler,
              ticker);
      this.announcementSettings = AnnouncementSettings.of(configuration);
      // The format plug-ins have read their keys now: any key left is not a setting.
      configuration.rawConfiguration().requireEveryKeyRead(key -> false);
      this.physicalIO =
          new PhysicalIO(
              retrying,
              configuration.physicalIO(),
              configuration.diskCache(),
              diskCaches.caches(),
              metrics,
              ticker);
    } catch (RuntimeException | Error e) {
      closeBuilt(selector, retrying, client, scheduler);
      throw e;
    }
    this.strategies = selector;
    this.client = retrying;
    StartupLog.announce(configuration, PhysicalIO.jvmBudget(), strategies.formatNames());
    this.vectored = new VectoredReads(physicalIO::mergeGap);
  }

  /**
   * {@code settings} with the factory's memory limit at most the JVM's budget, which the factory's
   * blocks can never pass anyway: its read-ahead windows and request sizes follow that limit.
   */
  private static S3SeekableInputStreamConfiguration withinJvmBudget(
      S3SeekableInputStreamConfiguration settings) {
    PhysicalIOConfiguration.JvmBudget budget = PhysicalIO.jvmBudget();
    PhysicalIOConfiguration physical = settings.physicalIO();
    if (physical.maxMemoryLimit() <= budget.bytes()) {
      return settings;
    }
    LOG.debug(
        "physicalio.max.memory.limit {} is over the JVM's budget of {} bytes ({}): the factory's"
            + " limit is the budget",
        physical.maxMemoryLimit(),
        budget.bytes(),
        budget.source());
    return settings.withPhysicalIO(physical.withMaxMemoryLimit(budget.bytes()));
  }

  /**
   * Closes what a constructor that failed had built, and what it owns: the strategies, the
   * resilience layer (which closes {@code scheduler} and {@code client}), or, if that was not
   * built, {@code scheduler} and {@code client} themselves.
   */
  private static void closeBuilt(
      ReadStrategySelector selector,
      RetryingObjectClient retrying,
      ObjectClient client,
      Scheduler scheduler) {
    if (selector != null) {
      selector.close();
    }
    if (retrying != null) {
      retrying.close();
    } else {
      scheduler.close();
      client.close();
    }
  }

  /** A factory over an {@link S3AsyncClient}, built with the Netty HTTP client or the CRT. */
  public S3SeekableInputStreamFactory(
      S3AsyncClient s3, S3SeekableInputStreamConfiguration configuration) {
    this(s3, configuration, new DiskCacheScope());
  }

  /** A factory over an {@link S3AsyncClient}, sharing disk caches within {@code diskCaches}. */
  public S3SeekableInputStreamFactory(
      S3AsyncClient s3,
      S3SeekableInputStreamConfiguration configuration,
      DiskCacheScope diskCaches) {
    this(new S3SdkObjectClient(s3), configuration, diskCaches);
  }

  /** A factory over a blocking {@link S3Client}. */
  public S3SeekableInputStreamFactory(
      S3Client s3, S3SeekableInputStreamConfiguration configuration) {
    this(s3, configuration, new DiskCacheScope());
  }

  /** A factory over a blocking {@link S3Client}, sharing disk caches within {@code diskCaches}. */
  public S3SeekableInputStreamFactory(
      S3Client s3, S3SeekableInputStreamConfiguration configuration, DiskCacheScope diskCaches) {
    this(new S3SyncSdkObjectClient(s3, configuration.client()), configuration, diskCaches);
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
    FetchContext context = contextFor(uri, information);
    ObjectReader reader =
        information.objectMetadata().isEmpty() && information.objectLength().isPresent()
            ? physicalIO.open(uri.location(), information.objectLength().getAsLong(), context)
            : physicalIO.open(uri.location(), metadata(uri, information), context);
    try {
      Prefetcher prefetcher = new ReaderPrefetcher(uri, reader, physicalIO::mergeGap);
      ReadStrategy strategy = strategies.select(uri, information.inputPolicy(), prefetcher);
      // An announced object will be read, like the ones prefetched after it: whole if small.
      if (announced.containsKey(uri) || strategy.fetchesSmallObjectWhole()) {
        strategies.prefetchSmallObject(uri, information.inputPolicy(), prefetcher);
      }
      strategy.onOpen();
      S3SeekableInputStream stream = new S3SeekableInputStream(uri, reader, strategy, vectored);
      Announcement.Entry announcement = announced.remove(uri);
      if (announcement != null) {
        announcement.opened();
      }
      return stream;
    } catch (IOException | RuntimeException e) {
      reader.close();
      throw e;
    }
  }

  private ObjectMetadata metadata(S3URI uri, OpenStreamInformation information) throws IOException {
    if (information.objectMetadata().isPresent()) {
      return information.objectMetadata().get();
    }
    return awaitHead(
        uri,
        physicalIO.metadata(
            uri.location(),
            information.requestOptions(),
            () -> information.requestCallback().onHeadRequest(uri)));
  }

  private ObjectMetadata awaitHead(S3URI uri, CompletableFuture<ObjectMetadata> head)
      throws IOException {
    return Futures.await(head, configuration.physicalIO().readTimeout().toNanos(), "HEAD " + uri);
  }

  /**
   * Announces objects the caller is going to read, in this order, each with the information its
   * stream will be opened with (its length at least). When a stream opens one of them, the next
   * ones are prefetched (small objects whole, larger ones their tail), within {@code
   * logicalio.announced.prefetch.files} objects and {@code logicalio.announced.prefetch.size} bytes
   * ahead and within the memory bound. Close the announcement when the reads are done or abandoned:
   * what was prefetched for objects never opened is then dropped. For engines that know a task's
   * files before reading them:
   *
   * <pre>{@code
   * try (Announcement task = factory.announce(files.stream()
   *     .map(f -> AnnouncedObject.of(f.uri(), f.length()))
   *     .toList())) {
   *   for (File f : files) {
   *     try (S3SeekableInputStream in = factory.createStream(f.uri(), f.openInformation())) {
   *       // read
   *     }
   *   }
   * }
   * }</pre>
   *
   * Sends no request by itself. Thread-safe.
   */
  public Announcement announce(List<AnnouncedObject> objects) {
    Objects.requireNonNull(objects, "objects");
    return new Announcement(
        List.copyOf(objects), announced, this::prefetchReader, announcementSettings);
  }

  /**
   * The request options of a stream's GETs, who is told of each, and whether the object may use the
   * disk tier (declared immutable by the caller, or under an immutable prefix).
   */
  private FetchContext contextFor(S3URI uri, OpenStreamInformation information) {
    return new FetchContext(
        information.requestOptions(),
        range -> information.requestCallback().onGetRequest(uri, range),
        information.immutable() || configuration.diskCache().declaresImmutable(uri.location()));
  }

  /** A reader that holds an announced object's prefetched bytes until its stream opens it. */
  private ObjectReader prefetchReader(AnnouncedObject object) {
    OpenStreamInformation information = object.information();
    FetchContext context = contextFor(object.uri(), information);
    return information.objectMetadata().isPresent()
        ? physicalIO.open(object.uri().location(), information.objectMetadata().get(), context)
        : physicalIO.open(object.uri().location(), object.length(), context);
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

  /**
   * Forgets what the factory cached of {@code uri}: its length and ETag and its bytes, of every
   * version and SSE-C key, before this returns. Call it after writing, overwriting or deleting the
   * object by other means, so that the next open or {@link #metadata} sees it as the store has it
   * now rather than as cached (for up to {@code physicalio.metadata.cache.ttl}). Streams already
   * open keep reading the version they opened.
   */
  public void invalidate(S3URI uri) {
    physicalIO.invalidate(Objects.requireNonNull(uri, "uri").location());
  }

  /**
   * The length and ETag of {@code uri} as the store has them now: one HEAD, sent with {@code
   * information}'s SSE-C key and request options, whatever was cached. Its answer replaces the
   * cached one, so later opens by length see the same version. For callers whose contract is to ask
   * the store, such as a file system's {@code exists()}.
   *
   * @throws java.io.FileNotFoundException if the object does not exist
   */
  public ObjectMetadata freshMetadata(S3URI uri, OpenStreamInformation information)
      throws IOException {
    Objects.requireNonNull(uri, "uri");
    return awaitHead(
        uri,
        physicalIO.freshMetadata(
            uri.location(),
            information.requestOptions(),
            () -> information.requestCallback().onHeadRequest(uri)));
  }

  /** The factory's counters: requests, bytes, retries, errors. */
  public MetricsSnapshot getMetrics() {
    return metrics.snapshot();
  }

  /**
   * The counters of every factory this JVM has made, closed ones included, added up: what an
   * executor exports to the engine's metrics system. Each only grows.
   */
  public static MetricsSnapshot jvmMetrics() {
    return JVM_METRICS.snapshot();
  }

  /**
   * The adaptive limit of requests in flight to each bucket read so far ({@code
   * client.concurrency.max}): lower than the most while the store throttles.
   */
  public Map<String, Integer> getConcurrencyLimits() {
    return client.concurrencyLimits();
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
    announced.clear();
    strategies.close();
    physicalIO.close();
    client.close();
  }
}
