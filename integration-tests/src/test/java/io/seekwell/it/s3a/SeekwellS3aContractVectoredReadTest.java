package io.seekwell.it.s3a;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractContractVectoredReadTest;
import org.apache.hadoop.fs.contract.AbstractFSContract;

/**
 * Hadoop's contract tests for vectored reads (heap and direct buffers), on S3A with Seekwell's
 * streams. The base class brings its own parameterization: JUnit 4's runner up to Hadoop 3.4, a
 * JUnit 5 parameterized class from 3.5.
 */
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
