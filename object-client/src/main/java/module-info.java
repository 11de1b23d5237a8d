/**
 * Seekwell's object clients: the AWS SDK v2 clients and the resilience layer over any {@code
 * ObjectClient}.
 */
@SuppressWarnings({"requires-automatic", "requires-transitive-automatic"}) // the SDK's modules
module io.seekwell.client {
  requires transitive io.seekwell.common;
  requires org.reactivestreams;
  requires org.slf4j;
  requires transitive software.amazon.awssdk.awscore;
  requires transitive software.amazon.awssdk.core;
  requires transitive software.amazon.awssdk.http;
  requires transitive software.amazon.awssdk.http.apache5;
  requires transitive software.amazon.awssdk.http.nio.netty;
  requires software.amazon.awssdk.regions;
  requires transitive software.amazon.awssdk.services.s3;

  exports io.seekwell.client;
}
