package io.seekwell.testing;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.s3.S3BaseClientBuilder;
import software.amazon.awssdk.services.s3.S3Client;

/**
 * Where a test's S3-compatible server listens and how to sign in to it. Immutable.
 *
 * @param uri the endpoint, e.g. {@code http://127.0.0.1:9000}
 * @param accessKey the access key id
 * @param secretKey the secret access key
 * @param certificate the server's self-signed certificate, for a TLS endpoint tests must trust
 */
public record S3Endpoint(
    URI uri, String accessKey, String secretKey, Optional<SelfSignedCertificate> certificate) {

  /** The region every test client uses; S3-compatible servers accept any. */
  public static final Region REGION = Region.US_EAST_1;

  /** Creates an endpoint; every argument must be non-null. */
  public S3Endpoint {
    Objects.requireNonNull(uri, "uri");
    Objects.requireNonNull(accessKey, "accessKey");
    Objects.requireNonNull(secretKey, "secretKey");
    Objects.requireNonNull(certificate, "certificate");
  }

  /** The same store and credentials, reached at {@code other} (a proxy in front of it). */
  public S3Endpoint via(URI other) {
    return new S3Endpoint(other, accessKey, secretKey, certificate);
  }

  /** Credentials for SDK clients. */
  public StaticCredentialsProvider credentials() {
    return StaticCredentialsProvider.create(AwsBasicCredentials.create(accessKey, secretKey));
  }

  /** Points an SDK client builder at this endpoint with path-style access. */
  public <B extends S3BaseClientBuilder<B, C>, C> B configure(B builder) {
    return builder
        .endpointOverride(uri)
        .region(REGION)
        .credentialsProvider(credentials())
        .forcePathStyle(true);
  }

  /** A synchronous SDK client for test set-up (buckets, uploads). The caller closes it. */
  public S3Client newAdminClient() {
    Apache5HttpClient.Builder http = Apache5HttpClient.builder();
    certificate.ifPresent(cert -> http.tlsTrustManagersProvider(cert::trustManagers));
    return configure(S3Client.builder()).httpClientBuilder(http).build();
  }
}
