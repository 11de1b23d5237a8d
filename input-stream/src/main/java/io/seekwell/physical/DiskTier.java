package io.seekwell.physical;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import com.github.benmanes.caffeine.cache.RemovalCause;
import com.sun.nio.file.ExtendedOpenOption;
import io.seekwell.common.concurrent.DaemonPools;
import io.seekwell.common.metrics.Metric;
import io.seekwell.common.metrics.Metrics;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The local disk tier below the block cache, for immutable objects: before a GET, a block takes the
 * leading bytes the disk has of its range; after a GET, the block's whole 64 KiB granules are
 * written by one writer thread, off the read path. Each object version (location, length, ETag when
 * known, SSE-C key MD5) is a {@link DiskObject}; the directory is bounded by size, evicting the
 * objects used least recently. The tier survives restarts: starting it lists the directory once,
 * and an object's index is read when the object is first used.
 *
 * <p><b>Design notes.</b> One process at a time uses a directory: the tier holds an exclusive lock
 * on {@code .lock} in it ({@link DiskDirectoryLock}). A factory that cannot use the directory
 * (another process holds it, it cannot be created, locked, written or listed, or its disk is full)
 * reads without the tier: {@link #acquire} returns none, counts {@link Metric#DISK_UNAVAILABLE},
 * and warns once per directory (until the tier opens there); a later factory tries again. Only a
 * configuration that contradicts itself within this process is an error. The factories of one
 * process that name the directory share one tier (a registry by directory, reference-counted,
 * changed only when a factory opens or closes); each passes its own metrics to what it calls. The
 * map of objects is concurrent; no lock is held across I/O except an object's own while it loads
 * its index. A block queued for writing stays pinned until written, so its memory stays counted in
 * the block cache's budget; the bytes queued are bounded, and a block that does not fit is not
 * written (counted). The writer thread alone uses the staging buffer it copies granules into for
 * direct I/O. Files are mapped for reading (see {@link DiskObject}); the mappings of the {@value
 * #MAPPED_OBJECTS} objects read last stay, kept in a bounded cache whose evictions unmap (on the
 * thread that causes them). No file stays open between reads or writes, so the tier holds no
 * descriptor per object. Any disk error pauses the tier (reads and writes) for a minute with a
 * warning; reads then go to the store, and never fail because of the disk. A factory that closes
 * waits for the writes queued so far (so that none still pins its blocks); the last one stops the
 * writer (unpinning what it had not written after 10 s), closes every file and releases the lock.
 */
final class DiskTier {

  private static final Logger LOG = LoggerFactory.getLogger(DiskTier.class);
  private static final String INDEX_SUFFIX = ".index";
  private static final String DATA_SUFFIX = ".data";
  private static final long PAUSE_NANOS = TimeUnit.MINUTES.toNanos(1);
  private static final int QUEUED_WRITES = 64;
  private static final long WRITES_AT_CLOSE_SECONDS = 10;

  /**
   * The most objects whose files stay mapped: a process may hold only so many mappings ({@code
   * vm.max_map_count}, 65,530 by default on Linux), and each costs one per gigabyte of its object.
   */
  static final int MAPPED_OBJECTS = 1024;

  /** The tiers open in this process, by directory; changed only at factory open and close. */
  private static final Map<Path, DiskTier> OPEN = new HashMap<>();

  /**
   * The directories found unusable since the tier last opened there, warned of; guarded by OPEN.
   */
  private static final Set<Path> WARNED = new HashSet<>();

  private final Path directory;
  private final long maxBytes;
  private final long maxQueuedBytes;
  private final LongSupplier nanoTime;
  private final DiskDirectoryLock lock;
  private final ConcurrentHashMap<String, DiskObject> objects = new ConcurrentHashMap<>();
  private final AtomicLong storedBytes = new AtomicLong();
  private final AtomicLong queuedBytes = new AtomicLong();
  private final AtomicLong ticks = new AtomicLong();
  private final ThreadPoolExecutor writer;
  // The objects read lately, whose mappings stay; the object that falls out is unmapped.
  private final Cache<DiskObject, Boolean> mapped =
      Caffeine.newBuilder()
          .maximumSize(MAPPED_OBJECTS)
          .executor(Runnable::run)
          .removalListener((DiskObject object, Boolean unused, RemovalCause cause) -> unmap(object))
          .build();
  // The writer thread's: where the granules of a write are copied before they go to disk.
  private final DiskObject.Staging staging;
  private int users; // guarded by OPEN
  private volatile long pausedUntil;
  private volatile boolean paused;

  private DiskTier(
      Path directory,
      long maxBytes,
      long maxQueuedBytes,
      LongSupplier nanoTime,
      DiskDirectoryLock lock,
      DiskObject.Staging staging) {
    this.directory = directory;
    this.maxBytes = maxBytes;
    this.maxQueuedBytes = maxQueuedBytes;
    this.nanoTime = nanoTime;
    this.lock = lock;
    this.staging = staging;
    this.writer =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.SECONDS,
            new ArrayBlockingQueue<>(QUEUED_WRITES),
            DaemonPools.threadFactory("seekwell-disk-writer-"));
  }

  /**
   * The unit direct I/O in {@code directory} must be aligned to: its file system's block size, at
   * least 4 KiB, or 4 KiB if the file system does not tell.
   */
  private static int alignmentIn(Path directory) {
    try {
      long blockSize = Files.getFileStore(directory).getBlockSize();
      return (int) Math.min(DiskObject.GRANULE, Math.max(4096, blockSize));
    } catch (IOException | UnsupportedOperationException e) {
      return 4096;
    }
  }

  /** The writer's staging buffer for {@code directory}'s file system. */
  private static DiskObject.Staging stagingFor(Path directory) throws IOException {
    int alignment = alignmentIn(directory);
    return new DiskObject.Staging(
        ByteBuffer.allocateDirect(DiskObject.MAX_RUN + 2 * alignment).alignedSlice(alignment),
        alignment,
        directWritesWork(directory));
  }

  /**
   * Whether files in {@code directory} can be opened for direct I/O; where the file system refuses
   * it (a few do), the tier writes through the page cache.
   */
  private static boolean directWritesWork(Path directory) throws IOException {
    Path probe = Files.createTempFile(directory, ".direct", ".probe");
    try (FileChannel channel =
        FileChannel.open(probe, StandardOpenOption.WRITE, ExtendedOpenOption.DIRECT)) {
      return channel.isOpen();
    } catch (IOException | UnsupportedOperationException e) {
      LOG.info(
          "Disk cache in {}: no direct I/O here ({}); writes go through the page cache",
          directory,
          e.toString());
      return false;
    } finally {
      Files.deleteIfExists(probe);
    }
  }

  /**
   * The tier in {@code configuration}'s directory, shared by every factory of this process that
   * uses the directory: opened (the directory created, locked, checked for space and listed) by the
   * first, closed when the last {@link #release}s it. At most {@code maxQueuedBytes} of blocks wait
   * to be written at once (as the first factory set it). None if the directory cannot be used (see
   * {@link DiskUnavailableException}): that is counted in {@code metrics} as {@link
   * Metric#DISK_UNAVAILABLE} and logged, as a warning the first time for the directory.
   *
   * @throws IllegalArgumentException if a factory of this process uses the directory with another
   *     {@code physicalio.disk.cache.max.size}: two sizes for one directory are the configuration's
   *     error, not the disk's, and no fallback would honour both
   */
  static Optional<DiskTier> acquire(
      DiskCacheConfiguration configuration,
      long maxQueuedBytes,
      LongSupplier nanoTime,
      UsableSpace space,
      Metrics metrics) {
    Path directory = configuration.directory().orElseThrow().toAbsolutePath().normalize();
    synchronized (OPEN) {
      DiskTier tier = OPEN.get(directory);
      if (tier == null) {
        try {
          tier = open(directory, configuration, maxQueuedBytes, nanoTime, space);
        } catch (DiskUnavailableException e) {
          readWithout(directory, e, metrics);
          return Optional.empty();
        }
        OPEN.put(directory, tier);
        WARNED.remove(directory);
      } else if (tier.maxBytes != configuration.maxSize()) {
        throw new IllegalArgumentException(
            "'"
                + DiskCacheConfiguration.PREFIX
                + "max.size' is "
                + configuration.maxSize()
                + " bytes, but another factory uses '"
                + directory
                + "' with "
                + tier.maxBytes
                + ": factories sharing a disk cache directory must set the same size");
      }
      tier.users++;
      return Optional.of(tier);
    }
  }

  /**
   * Counts a factory that reads without the tier, and says why: as a warning the first time for
   * {@code directory}, at debug level for the factories after it.
   */
  private static void readWithout(
      Path directory, DiskUnavailableException reason, Metrics metrics) {
    metrics.increment(Metric.DISK_UNAVAILABLE);
    String format =
        "Disk cache in {} ("
            + DiskCacheConfiguration.PREFIX
            + "dir) is not used, as {}: this factory reads from the store without it";
    if (WARNED.add(directory)) {
      LOG.warn(format, directory, reason.getMessage());
    } else {
      LOG.debug(format, directory, reason.getMessage());
    }
  }

  /**
   * One factory less uses the tier: waits (up to 10 s) for the writes queued so far, so that none
   * holds the factory's blocks; the last factory closes the tier.
   */
  void release() {
    synchronized (OPEN) {
      if (--users == 0) {
        OPEN.remove(directory, this);
        close();
        return;
      }
    }
    try {
      writer.submit(() -> {}).get(WRITES_AT_CLOSE_SECONDS, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } catch (ExecutionException | TimeoutException | RejectedExecutionException e) {
      LOG.warn(
          "Disk cache in {}: queued writes did not finish within {} s",
          directory,
          WRITES_AT_CLOSE_SECONDS,
          e);
    }
  }

  /**
   * Opens the tier in {@code directory}: claims it (see {@link DiskDirectoryLock#claim}), probes it
   * for direct I/O and lists what it holds; on failure, releases it.
   */
  private static DiskTier open(
      Path directory,
      DiskCacheConfiguration configuration,
      long maxQueuedBytes,
      LongSupplier nanoTime,
      UsableSpace space)
      throws DiskUnavailableException {
    DiskDirectoryLock lock = DiskDirectoryLock.claim(directory, space);
    try {
      DiskTier tier =
          new DiskTier(
              directory,
              configuration.maxSize(),
              maxQueuedBytes,
              nanoTime,
              lock,
              stagingFor(directory));
      tier.loadListing();
      return tier;
    } catch (IOException | UncheckedIOException e) {
      lock.release();
      throw new DiskUnavailableException("it cannot be written or listed (" + e + ")", e);
    } catch (RuntimeException e) {
      lock.release();
      throw e;
    }
  }

  /** Takes in the objects the directory holds, least recently used first, reading no index. */
  private void loadListing() throws IOException {
    record Listed(String name, long size, FileTime modified) {}
    List<Listed> listed = new ArrayList<>();
    List<Path> dataFiles = new ArrayList<>();
    try (Stream<Path> files = Files.list(directory)) {
      for (Path file : (Iterable<Path>) files::iterator) {
        String name = file.getFileName().toString();
        if (name.endsWith(INDEX_SUFFIX)) {
          listed.add(
              new Listed(
                  name.substring(0, name.length() - INDEX_SUFFIX.length()),
                  Files.size(file),
                  Files.getLastModifiedTime(file)));
        } else if (name.endsWith(DATA_SUFFIX)) {
          dataFiles.add(file);
        }
      }
    }
    // A data file whose index was never written (a crash) is of no use: it goes.
    for (Path data : dataFiles) {
      String name = data.getFileName().toString();
      if (!Files.exists(directory.resolve(name.replace(DATA_SUFFIX, INDEX_SUFFIX)))) {
        Files.deleteIfExists(data);
      }
    }
    listed.sort(Comparator.comparing(Listed::modified));
    for (Listed entry : listed) {
      long bytes = DiskObject.estimatedBytes(entry.size());
      objects.put(entry.name(), newObject(entry.name(), true, bytes));
      storedBytes.addAndGet(bytes);
    }
  }

  /** An object of this directory; see {@link DiskObject#DiskObject} for {@code listed}. */
  private DiskObject newObject(String name, boolean listed, long bytes) {
    return new DiskObject(
        directory, name, listed, bytes, ticks.incrementAndGet(), storedBytes::addAndGet);
  }

  /** The name an object version's files have: the SHA-256 of its identity. */
  static String identity(ObjectKey key) {
    return key.location()
        + "\n"
        + key.length()
        + "\n"
        + (key.etag() == null ? "" : key.etag())
        + "\n"
        + key.scope().customerKeyMd5();
  }

  private static String nameOf(String identity) {
    try {
      MessageDigest digest = MessageDigest.getInstance("SHA-256");
      return HexFormat.of().formatHex(digest.digest(identity.getBytes(StandardCharsets.UTF_8)));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("Every Java runtime has SHA-256", e);
    }
  }

  /**
   * Fills {@code block} (of {@code key}'s object) with the bytes the disk holds from its first
   * missing byte on, stopping at the first granule it does not hold or that fails its checksum.
   *
   * @return how many bytes it filled
   */
  int fill(ObjectKey key, Block block, Metrics metrics, Optional<Metrics> stream) {
    if (isPaused()) {
      return 0;
    }
    String identity = identity(key);
    DiskObject object = objects.get(nameOf(identity));
    try {
      if (object == null || !load(object, identity, key.length(), metrics)) {
        return 0;
      }
      object.used(ticks.incrementAndGet());
      try {
        return block.fillInPlace(new GranuleFiller(object, block.range().start(), metrics, stream));
      } finally {
        if (Mappings.available()) {
          mapped.get(object, read -> Boolean.TRUE); // after the read: the last to map, it counts
          if (mapped.estimatedSize() > MAPPED_OBJECTS) {
            mapped.cleanUp(); // evicts now, not at the cache's next maintenance
          }
        }
      }
    } catch (ClosedChannelException e) {
      return 0; // evicted meanwhile: the GET serves the bytes
    } catch (IOException e) {
      pause("reading " + key.location() + " " + block.range(), e, metrics);
      return 0;
    } catch (InternalError e) {
      // The JVM's report of a fault under a mapping: the file was cut short, or the device failed.
      pause(
          "reading " + key.location() + " " + block.range(),
          new IOException("a mapped data file could not be read", e),
          metrics);
      return 0;
    }
  }

  private static boolean load(DiskObject object, String identity, long length, Metrics metrics)
      throws IOException {
    return object.load(identity, length, () -> foreign(object, metrics));
  }

  private static void foreign(DiskObject object, Metrics metrics) {
    metrics.increment(Metric.DISK_CHECKSUM_FAILURES);
    LOG.warn(
        "Disk cache: {} belongs to another object; dropped and fetched again", object.indexFile());
  }

  /** Writes the granules of a block as it reads them from disk, in runs, checking each. */
  private final class GranuleFiller implements Block.Filler {
    private final DiskObject object;
    private final long blockStart;
    private final Metrics metrics;
    private final Optional<Metrics> stream;
    private byte[] scratch;

    GranuleFiller(DiskObject object, long blockStart, Metrics metrics, Optional<Metrics> stream) {
      this.object = object;
      this.blockStart = blockStart;
      this.metrics = metrics;
      this.stream = stream;
    }

    /**
     * Counts {@code bytes} served from disk, and a hit if they complete the block, before the block
     * shows them to readers (so that a reader that has them sees them counted).
     */
    private int served(int bytes, boolean completesBlock) {
      count(metrics, bytes, completesBlock);
      stream.ifPresent(sink -> count(sink, bytes, completesBlock));
      return bytes;
    }

    private static void count(Metrics sink, int bytes, boolean completesBlock) {
      sink.add(Metric.DISK_BYTES_READ, bytes);
      if (completesBlock) {
        sink.increment(Metric.DISK_HITS);
      }
    }

    @Override
    public int fill(byte[] array, int offset, int length) throws IOException {
      long position = blockStart + offset;
      int granule = DiskObject.granuleOf(position);
      long granuleStart = DiskObject.startOf(granule);
      if (granuleStart == position) {
        int n = object.read(granule, array, offset, length, this::checksumFailed);
        if (n > 0 || object.lengthOf(granule) <= length) {
          return n == 0 ? 0 : served(n, n == length);
        }
      }
      // The block starts or ends inside this granule: it is read whole aside.
      int n = object.read(granule, scratch(), 0, DiskObject.GRANULE, this::checksumFailed);
      int skip = (int) (position - granuleStart);
      if (n <= skip) {
        return 0;
      }
      int copied = Math.min(n - skip, length);
      System.arraycopy(scratch, skip, array, offset, copied);
      return served(copied, copied == length);
    }

    private void checksumFailed() {
      metrics.increment(Metric.DISK_CHECKSUM_FAILURES);
    }

    private byte[] scratch() {
      if (scratch == null) {
        scratch = new byte[DiskObject.GRANULE];
      }
      return scratch;
    }
  }

  /** Bytes of a granule held by one block. */
  private record Segment(Block block, long position, int length) {}

  /** The most blocks one granule's bytes are gathered from. */
  private static final int MAX_SEGMENTS = 8;

  /**
   * Queues for writing the granules of {@code block} (complete, of {@code key}'s object) that the
   * disk does not hold yet and whose bytes are all in memory: in the block, or in the complete
   * blocks next to it for a granule that straddles its edge. The blocks used stay pinned until the
   * granules are written.
   */
  void store(ObjectKey key, Block block, Metrics metrics) {
    if (isPaused()) {
      metrics.increment(Metric.DISK_WRITES_SKIPPED);
      return;
    }
    String identity = identity(key);
    String name = nameOf(identity);
    DiskObject known = objects.get(name);
    Map<Integer, List<Segment>> granules = new LinkedHashMap<>();
    Set<Block> pinned = Collections.newSetFromMap(new IdentityHashMap<>());
    long bytes = 0;
    int last = DiskObject.granuleOf(block.range().end());
    for (int granule = DiskObject.granuleOf(block.range().start()); granule <= last; granule++) {
      if (known != null && known.holds(granule)) {
        continue;
      }
      long start = DiskObject.startOf(granule);
      long end = Math.min(DiskObject.startOf(granule + 1), key.length());
      List<Segment> segments = gather(block, start, end, pinned);
      if (segments != null) {
        granules.put(granule, segments);
        bytes += end - start;
      }
    }
    if (granules.isEmpty()) {
      pinned.forEach(Block::unpin);
      return;
    }
    long queued = queuedBytes.addAndGet(bytes);
    if (queued > maxQueuedBytes && queued != bytes) { // one write may always wait, however large
      queuedBytes.addAndGet(-bytes);
      pinned.forEach(Block::unpin);
      metrics.increment(Metric.DISK_WRITES_SKIPPED);
      return;
    }
    Write write = new Write(key, identity, name, granules, List.copyOf(pinned), bytes, metrics);
    try {
      writer.execute(write);
    } catch (RejectedExecutionException e) {
      write.release();
      metrics.increment(Metric.DISK_WRITES_SKIPPED);
    }
  }

  /**
   * The segments of complete blocks that hold {@code [start, end)}, starting from {@code block} and
   * its neighbours, each pinned once into {@code pinned}; null if some byte is not in memory.
   */
  private static List<Segment> gather(Block block, long start, long end, Set<Block> pinned) {
    ObjectBlocks owner = block.key().owner();
    List<Segment> segments = new ArrayList<>();
    long position = start;
    while (position < end && segments.size() < MAX_SEGMENTS) {
      Block holder = block.range().contains(position) ? block : owner.blockAt(position);
      if (holder == null || !holder.isComplete() || !pin(holder, pinned)) {
        return null;
      }
      int length = (int) (Math.min(end, holder.range().end() + 1) - position);
      segments.add(new Segment(holder, position, length));
      position += length;
    }
    return position == end ? segments : null;
  }

  private static boolean pin(Block block, Set<Block> pinned) {
    if (pinned.contains(block)) {
      return true;
    }
    if (!block.tryPin()) {
      return false;
    }
    pinned.add(block);
    return true;
  }

  /** One block's granules to write; holds its blocks' pins until it has run or been dropped. */
  private final class Write implements Runnable {
    private final ObjectKey key;
    private final String identity;
    private final String name;
    private final Map<Integer, List<Segment>> granules;
    private final List<Block> pinned;
    private final long bytes;
    private final Metrics metrics;

    Write(
        ObjectKey key,
        String identity,
        String name,
        Map<Integer, List<Segment>> granules,
        List<Block> pinned,
        long bytes,
        Metrics metrics) {
      this.metrics = metrics;
      this.key = key;
      this.identity = identity;
      this.name = name;
      this.granules = granules;
      this.pinned = pinned;
      this.bytes = bytes;
    }

    @Override
    public void run() {
      try {
        if (isPaused()) {
          metrics.increment(Metric.DISK_WRITES_SKIPPED);
          return;
        }
        DiskObject object = objects.computeIfAbsent(name, n -> newObject(n, false, 0));
        if (!load(object, identity, key.length(), metrics)) {
          return;
        }
        object.used(ticks.incrementAndGet());
        Map<Integer, List<ByteBuffer>> missing = new LinkedHashMap<>();
        granules.forEach(
            (granule, segments) -> {
              if (!object.isPresent(granule)) {
                missing.put(
                    granule,
                    segments.stream()
                        .map(
                            segment ->
                                segment.block().arrived(segment.position(), segment.length()))
                        .toList());
              }
            });
        if (!missing.isEmpty()) {
          metrics.add(Metric.DISK_BYTES_WRITTEN, object.write(missing, staging));
        }
        evictBeyondBound(metrics);
      } catch (ClosedChannelException e) {
        // The object was evicted while it was being written: nothing to keep.
      } catch (IOException e) {
        pause("writing " + key.location() + " " + granules.keySet(), e, metrics);
      } finally {
        release();
      }
    }

    void release() {
      queuedBytes.addAndGet(-bytes);
      pinned.forEach(Block::unpin);
    }
  }

  /** Removes the objects used least recently until the directory is within its bound. */
  private void evictBeyondBound(Metrics metrics) {
    while (storedBytes.get() > maxBytes) {
      DiskObject coldest = null;
      String coldestName = null;
      for (var entry : objects.entrySet()) {
        if (coldest == null || entry.getValue().lastUsed() < coldest.lastUsed()) {
          coldest = entry.getValue();
          coldestName = entry.getKey();
        }
      }
      if (coldest == null || !objects.remove(coldestName, coldest)) {
        return;
      }
      metrics.increment(Metric.DISK_EVICTIONS);
      try {
        coldest.remove();
        mapped.invalidate(coldest);
      } catch (IOException e) {
        pause("evicting " + coldest.indexFile(), e, metrics);
      }
    }
  }

  private boolean isPaused() {
    if (paused && nanoTime.getAsLong() - pausedUntil >= 0) {
      paused = false;
    }
    return paused;
  }

  private void pause(String what, IOException error, Metrics metrics) {
    metrics.increment(Metric.DISK_ERRORS);
    pausedUntil = nanoTime.getAsLong() + PAUSE_NANOS;
    paused = true;
    LOG.warn(
        "Disk cache in {}: {} failed ({}); reads go to the store, and the disk cache pauses for"
            + " {} s",
        directory,
        what,
        error.toString(),
        TimeUnit.NANOSECONDS.toSeconds(PAUSE_NANOS));
  }

  /** Bytes the directory holds, as far as the tier knows. */
  long storedBytes() {
    return storedBytes.get();
  }

  /**
   * Lets the writer finish the writes queued (for up to 10 s; what is left then is dropped), then
   * closes every file and releases the directory.
   */
  private void close() {
    writer.shutdown();
    try {
      if (!writer.awaitTermination(WRITES_AT_CLOSE_SECONDS, TimeUnit.SECONDS)) {
        LOG.warn(
            "Disk cache in {}: queued writes did not finish within {} s; the rest are dropped",
            directory,
            WRITES_AT_CLOSE_SECONDS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    for (Runnable pending : writer.shutdownNow()) {
      if (pending instanceof Write write) {
        write.release();
      }
    }
    objects.values().forEach(DiskObject::unmap);
    lock.release();
  }

  private static void unmap(DiskObject object) {
    if (object != null) {
      object.unmap();
    }
  }
}
