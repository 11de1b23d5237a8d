package io.seekwell.common.metrics;

/** The counters Seekwell keeps. Each is a monotonically increasing count. */
public enum Metric {
  /** GET requests sent, retries included. */
  GET_REQUESTS,
  /** HEAD requests sent, retries included. */
  HEAD_REQUESTS,
  /** Body bytes received from the store. */
  BYTES_RECEIVED,
  /** Requests sent again after a retryable failure, resumed bodies included. */
  RETRIES,
  /** Requests for objects that did not exist (HTTP 404). */
  ERRORS_NOT_FOUND,
  /** Requests the store refused (HTTP 403). */
  ERRORS_ACCESS_DENIED,
  /** Requests whose ETag no longer matched (HTTP 412). */
  ERRORS_OBJECT_CHANGED,
  /** Requests for a range past the end of the object (HTTP 416 or a short body). */
  ERRORS_RANGE,
  /** Requests the store throttled (HTTP 503 SlowDown, HTTP 429). */
  ERRORS_THROTTLED,
  /** Server errors other than throttling (HTTP 5xx). */
  ERRORS_SERVER,
  /** Requests that got no complete answer: connection failures, resets and timeouts. */
  ERRORS_NETWORK,
  /** Any other failure. */
  ERRORS_OTHER,
  /** GETs sent because a read needed the bytes at once (not read-ahead), direct reads included. */
  DEMAND_GET_REQUESTS,
  /** Bytes asked for ahead of any read: read-ahead, small objects, vectored and format prefetch. */
  PREFETCHED_BYTES,
  /**
   * Prefetched bytes dropped from the cache without being read (counted in 64 KiB granules, so a
   * granule counts as read when any of its bytes was): the over-read.
   */
  PREFETCHED_BYTES_UNUSED,
  /**
   * Bytes asked for ahead of any read that were not fetched because no memory could be found for
   * them without evicting what readers have not used yet; sequential read-ahead shrinks its
   * requests before it gives up, and predicted chunks wait for memory before they are dropped.
   */
  PREFETCHED_BYTES_REFUSED,
  /**
   * Bytes of ranges a stream reads in order (predicted column chunks) that found no memory when
   * asked for, waited, and were fetched once the stream's reads had freed some; bytes still waiting
   * when a read starts past them or the stream closes count as {@link #PREFETCHED_BYTES_REFUSED}.
   */
  PREFETCHED_BYTES_WAITED,
  /**
   * Reads straight into the caller's buffer (no block memory was found for them, or long reads of a
   * scanned object) that were longer than one GET may be, and so were split into GETs of the
   * request size sent a few at a time.
   */
  DIRECT_READS_SPLIT,
  /**
   * Bytes read straight into callers' buffers, with no block between: long reads that missed the
   * cache of an object no other stream had open (one copy per byte instead of two), vectored
   * ranges' bytes no block held, and reads no block memory was found for.
   */
  DIRECT_READ_BYTES,
  /**
   * Bytes that reads' own misses carried beyond {@code physicalio.readaheadbytes}, because the link
   * transfers them in a tenth of its time to first byte ({@code physicalio.miss.max.bytes}).
   */
  MISS_WIDENED_BYTES,
  /**
   * Widened misses whose extra bytes a later read landed in (counted once per miss, at the first
   * such read), saving the GET it would have sent.
   */
  MISS_WIDENINGS_READ,
  /**
   * Misses the link would have widened that were not, as too few earlier widenings were read (fewer
   * than about one in eight): reads that land far from each other.
   */
  MISS_WIDENINGS_HELD_BACK,
  /** GETs sent again while the first was still waiting for its response headers. */
  HEDGED_GETS,
  /** Hedged GETs whose copy answered first. */
  HEDGES_WON,
  /** GET bodies that stopped delivering bytes for longer than the idle deadline, and were cut. */
  STALLED_GETS_ABANDONED,
  /** GET bodies continued by a new GET of their missing bytes after they failed part-way. */
  BODIES_RESUMED,
  /** Blocks of immutable objects served from the local disk tier whole, with no GET. */
  DISK_HITS,
  /**
   * Blocks of immutable objects the factory's own slot of the disk tier had not (or not whole):
   * completed from another slot ({@link #DISK_SHARED_HITS}) or with a GET.
   */
  DISK_MISSES,
  /** Bytes served from the disk tier. */
  DISK_BYTES_READ,
  /**
   * Blocks of immutable objects served whole, with no GET, from a slot of the disk tier's directory
   * that another JVM (or another scope of this one) holds, read only.
   */
  DISK_SHARED_HITS,
  /** Bytes served from slots of the disk tier's directory that others hold, read only. */
  DISK_SHARED_BYTES_READ,
  /** Bytes written to the disk tier. */
  DISK_BYTES_WRITTEN,
  /** Objects removed from the disk tier to stay within its size. */
  DISK_EVICTIONS,
  /** Bytes on disk that failed their checksum, were cut short or belonged to another object. */
  DISK_CHECKSUM_FAILURES,
  /** Disk reads and writes that failed (full disk, I/O errors); the tier pauses after each. */
  DISK_ERRORS,
  /** Blocks not written to the disk tier because its write queue was full or it was paused. */
  DISK_WRITES_SKIPPED,
  /**
   * Factories that read without the disk tier because its directory could not be used when they
   * started: another process held it, it could not be created, locked, written or listed, or its
   * disk was full (less than 1 MiB usable).
   */
  DISK_UNAVAILABLE,
  /**
   * Requests that waited for a place under their bucket's adaptive concurrency limit or among their
   * client's connections ({@code client.max.connections}); one that waited for both counts twice.
   */
  REQUESTS_QUEUED,
  /** Nanoseconds requests waited for those places. */
  QUEUED_NANOS,
  /** Times a bucket's adaptive concurrency limit was cut because the store throttled. */
  CONCURRENCY_LIMIT_CUTS,
  /**
   * Footers a format plug-in fetched and parsed to decide what to read ahead: a Parquet file's
   * footer, an ORC file's tail or one of its stripe footers.
   */
  FORMAT_FOOTERS_PARSED,
  /**
   * Footers a format plug-in could not use: not of its format, cut short, not parsing, or not
   * fetched (no memory for them, or the stream closed first). Each is also logged at DEBUG with the
   * object and the reason; the stream reads on with less prefetched.
   */
  FORMAT_FOOTERS_UNPARSED
}
