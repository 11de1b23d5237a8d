package io.seekwell.bench.paths;

import io.seekwell.bench.store.RequestCounter;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configurable;
import org.apache.hadoop.conf.Configuration;
import org.reactivestreams.Publisher;
import software.amazon.awssdk.core.interceptor.Context;
import software.amazon.awssdk.core.interceptor.ExecutionAttributes;
import software.amazon.awssdk.core.interceptor.ExecutionInterceptor;

/**
 * The {@link RequestCounter} for S3A, which builds its own SDK clients and instantiates extra
 * interceptors by class name ({@code fs.s3a.audit.execution.interceptors}): the file system's
 * configuration names, under {@link #ID_KEY}, the registered counter to forward to.
 */
public final class S3aRequestCounter implements ExecutionInterceptor, Configurable {

  static final String ID_KEY = "seekwell.bench.request-counter";

  private static final Map<String, RequestCounter> COUNTERS = new ConcurrentHashMap<>();

  private Configuration conf;
  private RequestCounter counter;

  /** For S3A, which instantiates it reflectively. */
  public S3aRequestCounter() {}

  static String register(RequestCounter counter) {
    String id = UUID.randomUUID().toString();
    COUNTERS.put(id, counter);
    return id;
  }

  static void unregister(String id) {
    COUNTERS.remove(id);
  }

  @Override
  public void setConf(Configuration conf) {
    this.conf = conf;
    String id = conf.get(ID_KEY);
    counter = id == null ? null : COUNTERS.get(id);
    if (counter == null) {
      throw new IllegalArgumentException(
          "No request counter registered under " + ID_KEY + "=" + id);
    }
  }

  @Override
  public Configuration getConf() {
    return conf;
  }

  @Override
  public void beforeTransmission(
      Context.BeforeTransmission context, ExecutionAttributes attributes) {
    counter.beforeTransmission(context, attributes);
  }

  @Override
  public void afterTransmission(Context.AfterTransmission context, ExecutionAttributes attributes) {
    counter.afterTransmission(context, attributes);
  }

  @Override
  public Optional<InputStream> modifyHttpResponseContent(
      Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    return counter.modifyHttpResponseContent(context, attributes);
  }

  @Override
  public Optional<Publisher<ByteBuffer>> modifyAsyncHttpResponseContent(
      Context.ModifyHttpResponse context, ExecutionAttributes attributes) {
    return counter.modifyAsyncHttpResponseContent(context, attributes);
  }
}
