package io.seekwell;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.CustomerKey;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.RequestOptions;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalLong;

/**
 * What the caller knows about a stream it opens. Immutable and thread-safe; built with {@link
 * #builder()}.
 */
public final class OpenStreamInformation {

  private static final RequestCallback NO_CALLBACK = new RequestCallback() {};
  private static final OpenStreamInformation DEFAULT = builder().build();

  private final Optional<ObjectMetadata> objectMetadata;
  private final OptionalLong objectLength;
  private final InputPolicy inputPolicy;
  private final Optional<CustomerKey> customerKey;
  private final Optional<String> auditInfo;
  private final Optional<Object> callerContext;
  private final Optional<Metrics> streamMetrics;
  private final RequestCallback requestCallback;
  private final boolean immutable;

  private OpenStreamInformation(Builder builder) {
    this.objectMetadata = Optional.ofNullable(builder.objectMetadata);
    this.objectLength =
        builder.objectMetadata != null
            ? OptionalLong.of(builder.objectMetadata.length())
            : builder.objectLength < 0
                ? OptionalLong.empty()
                : OptionalLong.of(builder.objectLength);
    this.inputPolicy = builder.inputPolicy;
    this.customerKey = Optional.ofNullable(builder.customerKey);
    this.auditInfo = Optional.ofNullable(builder.auditInfo);
    this.callerContext = Optional.ofNullable(builder.callerContext);
    this.streamMetrics = Optional.ofNullable(builder.streamMetrics);
    this.requestCallback = builder.requestCallback;
    this.immutable = builder.immutable;
  }

  /** Nothing known: Seekwell asks the store. */
  public static OpenStreamInformation ofDefaults() {
    return DEFAULT;
  }

  /** A builder with nothing set. */
  public static Builder builder() {
    return new Builder();
  }

  /** The object's length and ETag when the caller knows them; then no HEAD is sent. */
  public Optional<ObjectMetadata> objectMetadata() {
    return objectMetadata;
  }

  /**
   * The object's length when the caller knows it (alone or with the ETag); with a length alone no
   * HEAD is sent either, and the stream reads the version its first GET returns.
   */
  public OptionalLong objectLength() {
    return objectLength;
  }

  /** How the caller will read. */
  public InputPolicy inputPolicy() {
    return inputPolicy;
  }

  /** The SSE-C key the object was written with. */
  public Optional<CustomerKey> customerKey() {
    return customerKey;
  }

  /** A string sent with every request (as {@code Referer}) to identify the caller's job. */
  public Optional<String> auditInfo() {
    return auditInfo;
  }

  /** Told about every request the stream sends. */
  public RequestCallback requestCallback() {
    return requestCallback;
  }

  /**
   * Whether the caller declared the object immutable (written once, never changed), so that its
   * bytes may be kept in the factory's disk tier.
   */
  public boolean immutable() {
    return immutable;
  }

  /** The options every request of the stream carries. */
  public RequestOptions requestOptions() {
    RequestOptions options = RequestOptions.none();
    if (customerKey.isPresent()) {
      options = options.withCustomerKey(customerKey.get());
    }
    if (auditInfo.isPresent()) {
      options = options.withAuditInfo(auditInfo.get());
    }
    if (callerContext.isPresent()) {
      options = options.withCallerContext(callerContext.get());
    }
    if (streamMetrics.isPresent()) {
      options = options.withStreamMetrics(streamMetrics.get());
    }
    return options;
  }

  /** Builds {@link OpenStreamInformation}. Not thread-safe. */
  public static final class Builder {
    private ObjectMetadata objectMetadata;
    private long objectLength = -1;
    private InputPolicy inputPolicy = InputPolicy.DEFAULT;
    private CustomerKey customerKey;
    private String auditInfo;
    private Object callerContext;
    private Metrics streamMetrics;
    private RequestCallback requestCallback = NO_CALLBACK;
    private boolean immutable;

    private Builder() {}

    /** The object's length and ETag, so that no HEAD is needed. */
    public Builder objectMetadata(ObjectMetadata metadata) {
      this.objectMetadata = Objects.requireNonNull(metadata, "metadata");
      return this;
    }

    /**
     * The object's length, known without its ETag (from a table's metadata or a listing): no HEAD
     * is sent. The first GET response pins the version (its ETag) and every later GET of the stream
     * requires it, so a stream never mixes bytes of two versions; if the object does not exist the
     * first read, not the open, throws {@link java.io.FileNotFoundException}. Ignored when {@link
     * #objectMetadata(ObjectMetadata)} is set.
     *
     * @throws IllegalArgumentException if {@code length} is negative
     */
    public Builder objectLength(long length) {
      if (length < 0) {
        throw new IllegalArgumentException("Object length must be >= 0, was " + length);
      }
      this.objectLength = length;
      return this;
    }

    /** How the caller will read. */
    public Builder inputPolicy(InputPolicy policy) {
      this.inputPolicy = Objects.requireNonNull(policy, "policy");
      return this;
    }

    /** The SSE-C key the object was written with. */
    public Builder customerKey(CustomerKey key) {
      this.customerKey = Objects.requireNonNull(key, "key");
      return this;
    }

    /** A string sent with every request to identify the caller's job or query. */
    public Builder auditInfo(String audit) {
      this.auditInfo = Objects.requireNonNull(audit, "audit");
      return this;
    }

    /**
     * An object the factory's {@code ObjectClient} may use to send the stream's requests (a
     * connector's per-stream request factory). GETs one stream starts and others share carry the
     * context of the stream that started them.
     */
    public Builder callerContext(Object context) {
      this.callerContext = Objects.requireNonNull(context, "context");
      return this;
    }

    /**
     * Also counts, for this stream alone, what the resilience layer does for its requests (retries,
     * hedged GETs, hedges that won, stalled bodies cut, bodies resumed) and what the disk tier
     * served the blocks it started (disk hits, misses, bytes read).
     */
    public Builder streamMetrics(Metrics metrics) {
      this.streamMetrics = Objects.requireNonNull(metrics, "metrics");
      return this;
    }

    /** Told about every request the stream sends. */
    public Builder requestCallback(RequestCallback callback) {
      this.requestCallback = Objects.requireNonNull(callback, "callback");
      return this;
    }

    /**
     * Declares that the object is written once and never changed (as Iceberg writes its files), so
     * that the factory's disk tier ({@code physicalio.disk.cache.dir}) may keep its bytes across
     * streams, factories and restarts. Its bytes on disk are keyed by location, length, the ETag
     * when given, and the SSE-C key's MD5; an object overwritten under the same location and length
     * would be served its old bytes, so declare only what is truly immutable.
     */
    public Builder immutable(boolean declared) {
      this.immutable = declared;
      return this;
    }

    /** The information. */
    public OpenStreamInformation build() {
      return new OpenStreamInformation(this);
    }
  }
}
