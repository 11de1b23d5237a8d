package io.seekwell.testing;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.common.object.ObjectLocation;

/** The in-memory client that unit tests use behaves as every object client must. */
class InMemoryObjectClientContractTest extends ObjectClientContract {

  private final InMemoryObjectClient store = new InMemoryObjectClient(new Metrics());

  @Override
  protected ObjectClient client() {
    return store;
  }

  @Override
  protected boolean givesObjectLength() {
    return true;
  }

  @Override
  protected ObjectClient refusedClient(ObjectLocation location) {
    store.refuse(location);
    return store;
  }

  @Override
  protected ObjectLocation put(String key, byte[] bytes) {
    ObjectLocation location = ObjectLocation.of("bucket", key);
    store.put(location, bytes);
    return location;
  }
}
