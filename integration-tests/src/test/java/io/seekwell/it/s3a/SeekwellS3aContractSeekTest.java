package io.seekwell.it.s3a;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractSeekTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/** Hadoop's contract tests for seek and positioned reads, on S3A with Seekwell's streams. */
public class SeekwellS3aContractSeekTest extends AbstractContractSeekTest {

  @Override
  protected Configuration createConfiguration() {
    return SeekwellS3aSetup.configure(super.createConfiguration());
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new SeekwellS3aContract(conf);
  }
}
