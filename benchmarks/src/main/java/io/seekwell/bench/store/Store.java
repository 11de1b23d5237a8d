package io.seekwell.bench.store;

import io.seekwell.bench.Options;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Path;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;

/**
 * The store a benchmark reads from, as its options name it, the latency proxy in front, and the
 * bucket the read paths read.
 */
public final class Store {

  /** The bucket of the read benchmarks' objects, which every read path reads. */
  public static final String BUCKET = "seekwell-bench";

  private Store() {}

  /** The store's endpoint, {@code --endpoint}. */
  public static URI endpoint(Options options) {
    return URI.create(options.required("endpoint"));
  }

  /** The store's credentials from {@code --access-key} and {@code --secret-key}. */
  public static StaticCredentialsProvider credentials(Options options) {
    return StaticCredentialsProvider.create(
        AwsBasicCredentials.create(options.required("access-key"), options.required("secret-key")));
  }

  /**
   * The Toxiproxy server {@code --toxiproxy-server} names, started in front of the store; null if
   * the option is not given. Whoever calls this closes it.
   */
  public static ToxiproxyServer toxiproxy(Options options, URI endpoint)
      throws IOException, InterruptedException {
    return options.has("toxiproxy-server")
        ? ToxiproxyServer.start(
            Path.of(options.required("toxiproxy-server")),
            Path.of("benchmarks/target/toxiproxy.log"),
            endpoint)
        : null;
  }

  /** The innermost cause of {@code error}: its class and message, cut at {@code max} characters. */
  public static String rootMessage(Throwable error, int max) {
    Throwable cause = error;
    while (cause.getCause() != null) {
      cause = cause.getCause();
    }
    String message = cause.getClass().getSimpleName() + ": " + cause.getMessage();
    return message.length() > max ? message.substring(0, max) + "…" : message;
  }
}
