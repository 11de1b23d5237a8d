package io.seekwell.client;

import io.seekwell.common.ByteRange;
import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.GetRequest;
import io.seekwell.common.object.ObjectLocation;
import io.seekwell.testing.InMemoryObjectClient;
import io.seekwell.testing.ManualClock;
import io.seekwell.testing.TestData;

/**
 * One object of random bytes in an in-memory store behind {@link ScriptedFaultsObjectClient}, the
 * metrics a resilience decorator under test counts in, and a manual clock. Closing it stops the
 * clock.
 */
final class ScriptedStore implements AutoCloseable {

  static final ObjectLocation OBJECT = ObjectLocation.of("bucket", "key");

  final byte[] content;
  final GetRequest all;
  final Metrics metrics = new Metrics();
  final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());
  final ScriptedFaultsObjectClient faults = new ScriptedFaultsObjectClient(store);
  final ManualClock clock = new ManualClock();
  final String etag;

  /** The store with {@code length} random bytes from {@code seed} at {@link #OBJECT}. */
  ScriptedStore(long seed, int length) {
    this.content = TestData.randomBytes(seed, length);
    this.all = GetRequest.of(OBJECT, ByteRange.of(0, length - 1));
    this.etag = store.put(OBJECT, content);
  }

  @Override
  public void close() {
    clock.close();
  }
}
