package io.seekwell.testing;

import java.net.URI;
import java.util.HashMap;
import java.util.Map;

/** The catalog properties that point Iceberg's S3 FileIO at a test store. */
public final class IcebergS3Properties {

  private IcebergS3Properties() {}

  /** Iceberg's S3 properties for {@code endpoint}'s store, reached at {@code uri}; modifiable. */
  public static Map<String, String> of(S3Endpoint endpoint, URI uri) {
    Map<String, String> properties = new HashMap<>();
    properties.put("s3.endpoint", uri.toString());
    properties.put("s3.path-style-access", "true");
    properties.put("s3.access-key-id", endpoint.accessKey());
    properties.put("s3.secret-access-key", endpoint.secretKey());
    properties.put("client.region", "us-east-1");
    return properties;
  }

  /** Iceberg's S3 properties for {@code endpoint}'s store; modifiable. */
  public static Map<String, String> of(S3Endpoint endpoint) {
    return of(endpoint, endpoint.uri());
  }
}
