package io.seekwell.physical;

import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.object.ObjectChangedException;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The block store's index of the object versions it holds blocks of: which {@link ObjectBlocks} new
 * streams share, the versions GET responses pin and teach the metadata store, and the forgetting of
 * versions found changed or invalidated. Thread-safe: its rules are "The index" and "Versions" in
 * {@link BlockStore}'s design notes.
 */
final class ObjectIndex implements Fetcher.Versions {

  private static final Logger LOG = LoggerFactory.getLogger(ObjectIndex.class);

  private final ConcurrentHashMap<ObjectKey, ObjectBlocks> objects = new ConcurrentHashMap<>();
  private final MetadataStore metadata;
  private final Ticker ticker;
  private final long versionTtlNanos;
  private final Consumer<Block> drop;

  /**
   * An index that tells {@code metadata} the versions GET responses name, keeps a by-length version
   * for {@code versionTtl} at most when no metadata vouches for it, timing with {@code ticker}, and
   * drops a forgotten version's cached blocks with {@code drop}.
   */
  ObjectIndex(MetadataStore metadata, Duration versionTtl, Ticker ticker, Consumer<Block> drop) {
    this.metadata = metadata;
    this.ticker = ticker;
    this.versionTtlNanos = saturatedNanos(versionTtl);
    this.drop = drop;
  }

  private static long saturatedNanos(Duration duration) {
    try {
      return duration.toNanos();
    } catch (ArithmeticException e) {
      return Long.MAX_VALUE; // centuries: as long as ever
    }
  }

  /**
   * The blocks of {@code key}, counted as used by one more stream. A version opened by length whose
   * first GET named this ETag is shared rather than fetched again. An object opened by length whose
   * earlier by-length blocks are pinned to a version shares them while that version is current (see
   * {@link #stillCurrent}); otherwise the version may have been overwritten since, so the new
   * stream gets fresh blocks and the old ones are dropped (their streams keep reading them until
   * they close).
   */
  ObjectBlocks retain(ObjectKey key) {
    if (key.isPinned() && !objects.containsKey(key)) {
      ObjectBlocks[] pinnedByResponse = new ObjectBlocks[1];
      objects.computeIfPresent(
          ObjectKey.byLength(key.scope(), key.length()),
          (k, byLength) -> {
            if (key.etag().equals(byLength.etag())) {
              byLength.streamOpened();
              pinnedByResponse[0] = byLength;
            }
            return byLength;
          });
      if (pinnedByResponse[0] != null) {
        return pinnedByResponse[0];
      }
    }
    ObjectBlocks[] detached = new ObjectBlocks[1];
    ObjectBlocks retained =
        objects.compute(
            key,
            (k, existing) -> {
              ObjectBlocks blocks = existing;
              if (blocks == null
                  || (!k.isPinned() && blocks.etag() != null && !stillCurrent(blocks))) {
                detached[0] = existing;
                blocks = new ObjectBlocks(k);
              }
              blocks.streamOpened();
              return blocks;
            });
    if (detached[0] != null) {
      dropBlocks(detached[0]);
    }
    return retained;
  }

  /** One stream less uses {@code blocks}; the object's state goes when nothing of it is left. */
  void release(ObjectBlocks blocks) {
    objects.compute(
        blocks.key(),
        (k, current) -> {
          blocks.streamClosed();
          return current == blocks && blocks.isUnused() ? null : current;
        });
  }

  /**
   * As {@link #release}, then drops the object's blocks if no stream has it open (one that opens it
   * meanwhile fetches afresh what it needs).
   */
  void discard(ObjectBlocks blocks) {
    release(blocks);
    if (!blocks.isOpen()) {
      dropBlocks(blocks);
    }
  }

  /**
   * Checks that a GET response for {@code blocks} comes from their version, pinning the version to
   * the response's ETag if the object was opened by length and this is its first response.
   *
   * @throws ObjectChangedException if the response names another version
   */
  @Override
  public void check(ObjectBlocks blocks, ObjectContent content) throws ObjectChangedException {
    String pinned = blocks.etag();
    if (pinned == null) {
      pinned = pinFirstResponse(blocks, content);
    }
    if (pinned != null && !pinned.equals(content.etag())) {
      throw new ObjectChangedException(
          blocks.key().location()
              + " changed while it was read: ETag "
              + content.etag()
              + " where "
              + pinned
              + " was read before",
          null);
    }
  }

  /**
   * Pins {@code blocks} to the first response's ETag and teaches the metadata store that version,
   * in one step as {@link #retain} sees it, so that a stream opened by length meanwhile shares the
   * blocks whichever of the two it finds: unpinned blocks, or the version's metadata (see {@link
   * #stillCurrent}). The metadata is taught only when the response confirms the length the object
   * was opened with: a caller may open an object as shorter than it is, which must not become its
   * length for the factory's other users.
   *
   * @return null if this call pinned the version, else the ETag pinned before
   */
  private String pinFirstResponse(ObjectBlocks blocks, ObjectContent content) {
    String etag = content.etag();
    boolean lengthConfirmed =
        content.objectLength().isPresent() && content.objectLength().getAsLong() == blocks.length();
    String[] pinnedBefore = new String[1];
    objects.compute(
        blocks.key(),
        (key, current) -> {
          pinnedBefore[0] = blocks.pin(etag, ticker.nanos());
          // An object invalidated while its first GET was in flight no longer teaches the metadata.
          if (pinnedBefore[0] == null && current == blocks && lengthConfirmed) {
            metadata.remember(key.scope(), ObjectMetadata.of(blocks.length(), etag));
            blocks.taughtMetadata();
          }
          return current;
        });
    if (pinnedBefore[0] == null && !lengthConfirmed && content.objectLength().isPresent()) {
      LOG.debug(
          "GET {}: the object is {} bytes, opened as {}; its metadata is not learnt",
          blocks.key().location(),
          content.objectLength().getAsLong(),
          blocks.length());
    }
    return pinnedBefore[0];
  }

  /**
   * Whether by-length {@code blocks} pinned to a version may serve a new by-length open. If the
   * metadata store holds the object: while it names that version. If it does not: not if the
   * pinning response taught it (that metadata expired, or was forgotten because the object changed
   * or was refreshed); otherwise (the response did not confirm the length) for the metadata time to
   * live from the pinning, as long as learnt metadata would have been kept. Else the object may
   * have been overwritten, so the open gets fresh blocks.
   */
  private boolean stillCurrent(ObjectBlocks blocks) {
    Optional<ObjectMetadata> known = metadata.cached(blocks.key().scope());
    if (known.isPresent()) {
      return blocks.etag().equals(known.get().etag());
    }
    return !blocks.hasTaughtMetadata() && ticker.nanos() - blocks.pinnedNanos() < versionTtlNanos;
  }

  /**
   * Forgets everything of {@code location}, every version and SSE-C key: its metadata, and its
   * blocks, which leave the index so that the next open fetches afresh. Streams already open keep
   * reading what they hold until they close; their responses no longer teach the metadata store.
   */
  void invalidate(ObjectLocation location) {
    for (ObjectKey key : objects.keySet()) {
      if (key.location().equals(location)) {
        ObjectBlocks detached = objects.remove(key);
        if (detached != null) {
          dropBlocks(detached);
        }
      }
    }
    metadata.invalidate(location);
  }

  /**
   * Forgets the object's metadata, takes {@code blocks} and every other entry of the object pinned
   * to the same version (opened with another length, or by ETag) out of the index and drops their
   * cached blocks, in this order, so that a stream opened meanwhile finds neither the version's
   * metadata nor its blocks. Streams that hold the version keep it until they close.
   */
  @Override
  public void changed(ObjectBlocks blocks) {
    ScopedLocation scope = blocks.key().scope();
    metadata.invalidate(scope);
    String gone = blocks.etag();
    for (Map.Entry<ObjectKey, ObjectBlocks> entry : objects.entrySet()) {
      ObjectBlocks other = entry.getValue();
      if (other != blocks
          && gone != null
          && entry.getKey().scope().equals(scope)
          && gone.equals(other.etag())
          && objects.remove(entry.getKey(), other)) {
        dropBlocks(other);
      }
    }
    objects.remove(blocks.key(), blocks);
    dropBlocks(blocks);
  }

  private void dropBlocks(ObjectBlocks blocks) {
    for (Block block : blocks.blocks().values()) {
      drop.accept(block);
    }
  }

  /** {@code block} left the memory tier: take it out of its object, and the object if unused. */
  void leave(Block block) {
    ObjectBlocks owner = block.key().owner();
    objects.compute(
        owner.key(),
        (k, current) -> {
          owner.remove(block);
          return current == owner && owner.isUnused() ? null : current;
        });
  }

  /** How many objects have state here (open streams or cached bytes). */
  int trackedObjects() {
    return objects.size();
  }
}
