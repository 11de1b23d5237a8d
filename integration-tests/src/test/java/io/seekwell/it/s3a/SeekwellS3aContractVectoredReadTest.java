package io.seekwell.it.s3a;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;
import org.junit.runner.RunWith;
import org.junit.runners.Parameterized;

/**
 * Hadoop's contract tests for vectored reads (heap and direct buffers), on S3A with Seekwell's
 * streams.
 */
@RunWith(Parameterized.class)
public class SeekwellS3aContractVectoredReadTest extends AbstractContractVectoredReadTest {

  public SeekwellS3aContractVectoredReadTest(String bufferType) {
    super(bufferType);
  }

  @Override
  protected Configuration createConfiguration() {
    return SeekwellS3aSetup.configure(super.createConfiguration());
  }

  @Override
  protected AbstractFSContract createContract(Configuration conf) {
    return new SeekwellS3aContract(conf);
  }
}
