package io.seekwell.client;

import io.seekwell.common.metrics.Metrics;
import io.seekwell.common.object.MeteredObjectClient;
import io.seekwell.common.object.ObjectClient;
import io.seekwell.testing.S3Endpoint;
import java.net.URI;
import software.amazon.awssdk.http.apache5.Apache5HttpClient;
import software.amazon.awssdk.http.nio.netty.NettyNioAsyncHttpClient;
import software.amazon.awssdk.services.s3.S3AsyncClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.crt.S3CrtHttpConfiguration;
import software.amazon.awssdk.utils.SdkAutoCloseable;

/** The three SDK clients an object client can sit on, built for a test endpoint. */
enum SdkClientKind {
  NETTY {
    @Override
    Clients open(S3Endpoint endpoint, ObjectClientConfiguration config, Metrics metrics) {
      NettyNioAsyncHttpClient.Builder http = SdkClients.nettyHttpClient(config);
      endpoint.certificate().ifPresent(cert -> http.tlsTrustManagersProvider(cert::trustManagers));
      S3AsyncClient s3 =
          endpoint
              .configure(S3AsyncClient.builder())
              .httpClientBuilder(http)
              .overrideConfiguration(SdkClients.withoutSdkRetries())
              .build();
      return new Clients(new MeteredObjectClient(new S3SdkObjectClient(s3), metrics), s3);
    }
  },
  CRT {
    @Override
    Clients open(S3Endpoint endpoint, ObjectClientConfiguration config, Metrics metrics) {
      S3CrtHttpConfiguration http = SdkClients.crtHttpConfiguration(config);
      if (endpoint.certificate().isPresent()) {
        // The CRT client reads trusted certificates from the system store only, so a test
        // server's self-signed certificate can only be accepted by trusting every certificate.
        http = http.toBuilder().trustAllCertificatesEnabled(true).build();
      }
      S3AsyncClient s3 =
          SdkClients.crtBuilder(config)
              .endpointOverride(endpoint.uri())
              .region(S3Endpoint.REGION)
              .credentialsProvider(endpoint.credentials())
              .forcePathStyle(true)
              .httpConfiguration(http)
              .build();
      return new Clients(new MeteredObjectClient(new S3SdkObjectClient(s3), metrics), s3);
    }
  },
  SYNC {
    @Override
    Clients open(S3Endpoint endpoint, ObjectClientConfiguration config, Metrics metrics) {
      Apache5HttpClient.Builder http = SdkClients.apacheHttpClient(config);
      endpoint.certificate().ifPresent(cert -> http.tlsTrustManagersProvider(cert::trustManagers));
      S3Client s3 =
          endpoint
              .configure(S3Client.builder())
              .httpClientBuilder(http)
              .overrideConfiguration(SdkClients.withoutSdkRetries())
              .build();
      return new Clients(
          new MeteredObjectClient(new S3SyncSdkObjectClient(s3, config), metrics), s3);
    }
  };

  /** A metered object client over a new SDK client of this kind; closing closes both. */
  abstract Clients open(S3Endpoint endpoint, ObjectClientConfiguration config, Metrics metrics);

  /** The same, through another URI (a proxy) in front of the endpoint. */
  Clients open(S3Endpoint endpoint, URI via, ObjectClientConfiguration config, Metrics metrics) {
    return open(
        new S3Endpoint(via, endpoint.accessKey(), endpoint.secretKey(), endpoint.certificate()),
        config,
        metrics);
  }

  /** An object client and the SDK client under it. */
  record Clients(ObjectClient client, SdkAutoCloseable sdk) implements AutoCloseable {
    @Override
    public void close() {
      client.close();
      sdk.close();
    }
  }
}
