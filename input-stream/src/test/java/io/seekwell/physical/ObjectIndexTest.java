package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.ObjectMetadata;
import io.seekwell.common.object.RequestOptions;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.time.Duration;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which blocks a stream opened by length gets once the first response pinned the version: the same
 * ones while the version is current (the metadata store names it; or it holds nothing of the
 * object, the response taught it nothing, and the pinning is younger than the metadata time to
 * live), fresh ones after. The metadata is learnt from a response only when it confirms the length
 * the object was opened with. A version found changed leaves the index under every length.
 */
class ObjectIndexTest {

  private static final int LENGTH = 1024;
  private static final String ETAG = "\"v1\"";
  private static final Duration TTL = Duration.ofMinutes(5);
  private static final ScopedLocation SCOPE =
      ScopedLocation.of(ObjectLocation.of("bucket", "key"), RequestOptions.none());
  private static final ObjectKey BY_LENGTH = ObjectKey.byLength(SCOPE, LENGTH);

  private final PhysicalIOConfiguration configuration =
      PhysicalIOConfiguration.builder().metadataCacheTtl(TTL).build();
  private final ManualClock clock = new ManualClock();
  private final InMemoryObjectClient client = new InMemoryObjectClient(new Metrics());
  private final MetadataStore metadata = new MetadataStore(client, configuration, clock);
  private final ObjectIndex store = new ObjectIndex(metadata, TTL, clock, block -> {});

  @AfterEach
  void close() {
    clock.close();
  }

  /**
   * What the fetch thread does with the first response to a GET of {@code blocks}, which gives the
   * object's length as {@code objectLength} (if present).
   */
  private void firstResponse(ObjectBlocks blocks, OptionalLong objectLength) throws IOException {
    store.check(
        blocks,
        new ObjectContent(
            ByteRange.ofLength(0, LENGTH),
            ETAG,
            new ByteArrayInputStream(new byte[LENGTH]),
            objectLength));
  }

  @Test
  void aStreamOpenedByLengthAsTheFirstResponseTeachesTheVersionSharesItsBlocks()
      throws IOException {
    ObjectBlocks first = store.retain(BY_LENGTH);
    firstResponse(first, OptionalLong.of(LENGTH));
    assertEquals(ETAG, metadata.cached(SCOPE).orElseThrow().etag());
    // The second stream found no metadata and opens by length, after the response pinned it.
    assertSame(first, store.retain(BY_LENGTH));
  }

  @Test
  void aResponseGivingAnotherLengthPinsTheVersionButTeachesNoMetadata() throws IOException {
    ObjectBlocks first = store.retain(BY_LENGTH);
    firstResponse(first, OptionalLong.of(2 * LENGTH));
    assertEquals(ETAG, first.etag());
    assertTrue(metadata.cached(SCOPE).isEmpty());
  }

  @Test
  void withoutMetadataAPinnedVersionIsSharedForTheTimeToLiveFromItsPinningThenFetchedAfresh()
      throws IOException {
    ObjectBlocks first = store.retain(BY_LENGTH);
    clock.advance(Duration.ofMinutes(1));
    firstResponse(first, OptionalLong.empty());
    assertTrue(metadata.cached(SCOPE).isEmpty());
    clock.advance(TTL.minusSeconds(1));
    assertSame(first, store.retain(BY_LENGTH));
    clock.advance(Duration.ofSeconds(1));
    assertNotSame(first, store.retain(BY_LENGTH));
  }

  @Test
  void aVersionWhoseTaughtMetadataIsGoneGetsFreshBlocks() throws IOException {
    ObjectBlocks first = store.retain(BY_LENGTH);
    firstResponse(first, OptionalLong.of(LENGTH));
    // Forgotten (expired, refreshed or found changed) well within the time to live.
    metadata.invalidate(SCOPE);
    assertNotSame(first, store.retain(BY_LENGTH));
  }

  @Test
  void aVersionOtherThanTheOneTheMetadataNamesIsNotShared() throws IOException {
    ObjectBlocks first = store.retain(BY_LENGTH);
    firstResponse(first, OptionalLong.empty());
    // A HEAD since found the object overwritten.
    metadata.remember(SCOPE, ObjectMetadata.of(LENGTH, "\"v2\""));
    assertNotSame(first, store.retain(BY_LENGTH));
  }

  @Test
  void theVersionTheMetadataNamesIsSharedWhateverLengthItWasOpenedWith() throws IOException {
    ObjectBlocks first = store.retain(BY_LENGTH);
    firstResponse(first, OptionalLong.empty());
    metadata.remember(SCOPE, ObjectMetadata.of(2 * LENGTH, ETAG));
    clock.advance(TTL.minusSeconds(1));
    assertSame(first, store.retain(BY_LENGTH));
  }

  @Test
  void aVersionFoundChangedLeavesTheIndexUnderEveryLengthItWasOpenedWith() throws IOException {
    ObjectBlocks whole = store.retain(BY_LENGTH);
    ObjectKey shorterKey = ObjectKey.byLength(SCOPE, LENGTH / 2);
    ObjectBlocks shorter = store.retain(shorterKey);
    firstResponse(whole, OptionalLong.empty());
    firstResponse(shorter, OptionalLong.empty());
    assertSame(shorter, store.retain(shorterKey));

    store.changed(whole);
    assertNotSame(shorter, store.retain(shorterKey));
    assertNotSame(whole, store.retain(BY_LENGTH));
  }
}
