package io.seekwell.hadoop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.InputPolicy;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.s3a.S3AInputPolicy;
import org.junit.jupiter.api.Test;

class SeekwellStreamFactoryTest {

  @Test
  void s3aPoliciesMapToSeekwellPolicies() {
    assertEquals(InputPolicy.SEQUENTIAL, SeekwellStreamFactory.policy(S3AInputPolicy.Sequential));
    // S3A folds parquet, orc, columnar and vector into random: Seekwell then decides by name.
    assertEquals(InputPolicy.DEFAULT, SeekwellStreamFactory.policy(S3AInputPolicy.Random));
    assertEquals(InputPolicy.DEFAULT, SeekwellStreamFactory.policy(S3AInputPolicy.Normal));
  }

  @Test
  void aBadSeekwellSettingFailsInitWithTheFullKey() {
    Configuration conf = new Configuration(false);
    conf.set("fs.s3a.seekwell.physicalio.readaheadbytes", "fast");
    SeekwellStreamFactory factory = new SeekwellStreamFactory();
    Exception error = assertThrows(Exception.class, () -> factory.init(conf));
    Throwable cause = error;
    while (cause.getCause() != null && !(cause instanceof IllegalArgumentException)) {
      cause = cause.getCause();
    }
    assertTrue(
        cause.getMessage().contains("fs.s3a.seekwell.physicalio.readaheadbytes"),
        cause.getMessage());
  }
}
