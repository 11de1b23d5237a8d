package io.seekwell.it.s3a;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.contract.AbstractBondedFSContract;

/**
 * Hadoop's file system contract for S3A with Seekwell's streams: what an S3 store does and does not
 * support, from {@code contract/seekwell-s3a.xml}, and the test bucket from {@code
 * fs.contract.test.fs.s3a}.
 */
public final class SeekwellS3aContract extends AbstractBondedFSContract {

  public SeekwellS3aContract(Configuration conf) {
    super(conf);
    addConfResource("contract/seekwell-s3a.xml");
  }

  @Override
  public String getScheme() {
    return "s3a";
  }
}
