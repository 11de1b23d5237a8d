package io.seekwell.testing;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Gives a test class a real S3-compatible server and a fresh bucket, injected as an {@link
 * S3TestBucket} parameter. See {@link S3ServerExtension} for where the server comes from.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(S3ServerExtension.class)
public @interface WithS3Server {

  /** Whether the server must speak TLS (MinIO accepts SSE-C only over TLS). */
  boolean tls() default false;
}
