package io.seekwell.physical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.DiskCacheConfiguration;
import io.seekwell.PhysicalIOConfiguration;
import io.seekwell.common.ByteRange;
import io.seekwell.common.concurrent.Ticker;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectContent;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.common.object.RequestOptions;
import io.seekwell.testing.InMemoryObjectClient;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.OptionalLong;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * Which blocks a stream opened by length gets once the first response pinned the version: the same
 * ones while the metadata store names that version, fresh ones once it no longer does. The metadata
 * is learnt from a response only when it confirms the length the object was opened with.
 */
class BlockStoreVersionsTest {

  private static final int LENGTH = 1024;
  private static final String ETAG = "\"v1\"";
  private static final ScopedLocation SCOPE =
      ScopedLocation.of(ObjectLocation.of("bucket", "key"), RequestOptions.none());
  private static final ObjectKey BY_LENGTH = ObjectKey.byLength(SCOPE, LENGTH);

  private final PhysicalIOConfiguration configuration = PhysicalIOConfiguration.builder().build();
  private final InMemoryObjectClient client = new InMemoryObjectClient(new Metrics());
  private final MetadataStore metadata = new MetadataStore(client, configuration, Ticker.system());
  private final BlockStore store =
      new BlockStore(
          client,
          configuration,
          DiskCacheConfiguration.OFF,
          new DiskCaches(),
          UsableSpace.FILE_STORE,
          new Metrics(),
          metadata,
          Ticker.system());

  @AfterEach
  void close() {
    store.close();
  }

  /**
   * What the fetch thread does with the first response to a GET of {@code blocks}, which gives the
   * object's length as {@code objectLength}.
   */
  private void firstResponse(ObjectBlocks blocks, long objectLength) throws IOException {
    store.check(
        blocks,
        new ObjectContent(
            ByteRange.ofLength(0, LENGTH),
            ETAG,
            new ByteArrayInputStream(new byte[LENGTH]),
            OptionalLong.of(objectLength)));
  }

  @Test
  void aStreamOpenedByLengthAsTheFirstResponseTeachesTheVersionSharesItsBlocks()
      throws IOException {
    ObjectBlocks first = store.retain(BY_LENGTH);
    // The second stream found no metadata and opens by length, after the response pinned it.
    firstResponse(first, LENGTH);
    assertSame(first, store.retain(BY_LENGTH));
  }

  @Test
  void aStreamOpenedByLengthOnceTheVersionsMetadataExpiredGetsFreshBlocks() throws IOException {
    ObjectBlocks first = store.retain(BY_LENGTH);
    firstResponse(first, LENGTH);
    metadata.invalidate(SCOPE);
    assertNotSame(first, store.retain(BY_LENGTH));
  }

  @Test
  void aResponseGivingAnotherLengthPinsTheVersionButTeachesNoMetadata() throws IOException {
    ObjectBlocks first = store.retain(BY_LENGTH);
    firstResponse(first, 2 * LENGTH);
    assertEquals(ETAG, first.etag());
    assertTrue(metadata.cached(SCOPE).isEmpty());
  }
}
