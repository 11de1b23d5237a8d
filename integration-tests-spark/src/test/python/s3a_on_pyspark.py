"""Seekwell's Hadoop bundle in a PySpark distribution, as its users deploy it.

Run by scripts/test-pyspark.sh with spark-submit on local-cluster[2,1,1024] (two executor JVMs),
hadoop-aws from --packages and Seekwell's bundle from --jars. Writes Parquet and ORC tables through
S3A, copies them to two more buckets read by S3A's classic stream and by the distribution's default
stream, and checks that:

- the versions are the distribution's (Spark and Hadoop), and each bucket is read by the stream it
  names: Seekwell's, S3A's classic, and Hadoop 3.5.0's default, AAL's analytics stream;
- every query answers the same on the generated rows and through the three streams;
- Spark's input metrics of a full scan through Seekwell count the files' bytes (within 2 %; the
  other streams' figures are printed: they count vectored reads where Spark does not look), and
  every path counts the 1,500,000 records;
- each executor logged Seekwell's startup line, with a memory budget of half of Spark's user memory.

Exits non-zero (an AssertionError, raised whatever Python's -O says) on the first difference.
"""

import argparse
import glob
import json
import os
import time
import urllib.request

from pyspark.sql import SparkSession

ROWS = (
    "SELECT id, concat('c', id % 7) AS category, (id * 37 % 1000) / 10.0 AS amount"
    " FROM range(0, 1500000)"
)
QUERIES = [
    "SELECT count(*), round(sum(amount), 2), min(id), max(id) FROM {}",
    "SELECT count(*) FROM {} WHERE amount > 50 AND category = 'c3'",
    "SELECT category, count(*), round(sum(amount), 2) FROM {} GROUP BY category ORDER BY category",
    "SELECT bit_xor(xxhash64(id, category, amount)) FROM {}",
]
FULL_SCAN = "SELECT bit_xor(xxhash64(id, category, amount)) FROM {}"
SEEKWELL_STREAM = "io.seekwell.hadoop.SeekwellS3aInputStream"
CLASSIC_STREAM = "org.apache.hadoop.fs.s3a.S3AInputStream"
ANALYTICS_STREAM = "org.apache.hadoop.fs.s3a.impl.streams.AnalyticsStream"
ROW_COUNT = 1500000
STARTUP_LINE = "Seekwell "  # "INFO S3SeekableInputStreamFactory: Seekwell <version> reads from S3"
# How long Spark's status store may lag behind a finished job (its listener bus is asynchronous),
# and how long the executors may take to register.
STATUS_DEADLINE_SECONDS = 60


def check(condition, message):
    """An assertion that python -O does not remove."""
    if not condition:
        raise AssertionError(message)


def main():
    parser = argparse.ArgumentParser()
    for name in ("endpoint", "access-key", "secret-key", "bucket", "classic-bucket",
                 "default-bucket", "spark-version", "hadoop-version"):
        parser.add_argument("--" + name, required=True)
    args = parser.parse_args()

    builder = (SparkSession.builder.appName("seekwell-pyspark")
               .config("spark.ui.port", "0")
               .config("spark.sql.shuffle.partitions", "4"))
    s3a = {
        "fs.s3a.endpoint": args.endpoint,
        "fs.s3a.endpoint.region": "us-east-1",
        "fs.s3a.path.style.access": "true",
        "fs.s3a.connection.ssl.enabled": "false",
        "fs.s3a.access.key": args.access_key,
        "fs.s3a.secret.key": args.secret_key,
        "fs.s3a.aws.credentials.provider":
            "org.apache.hadoop.fs.s3a.SimpleAWSCredentialsProvider",
        # Seekwell's stream for the main bucket, with a memory limit its cache evicts within.
        "fs.s3a.bucket." + args.bucket + ".input.stream.type": "custom",
        "fs.s3a.bucket." + args.bucket + ".input.stream.custom.factory":
            "io.seekwell.hadoop.SeekwellStreamFactory",
        "fs.s3a.seekwell.physicalio.max.memory.limit": "8MB",
        "fs.s3a.bucket." + args.classic_bucket + ".input.stream.type": "classic",
        # The default bucket is left to the distribution's default stream.
    }
    for key, value in s3a.items():
        builder = builder.config("spark.hadoop." + key, value)
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    jvm = sc._jvm
    try:
        check(sc.version == args.spark_version, "Spark " + sc.version)
        hadoop = jvm.org.apache.hadoop.util.VersionInfo.getVersion()
        check(hadoop == args.hadoop_version, "Hadoop " + hadoop)
        deadline = time.monotonic() + STATUS_DEADLINE_SECONDS
        while len(sc._jsc.sc().statusTracker().getExecutorInfos()) < 3:
            check(time.monotonic() < deadline, "two executors did not register in %d s"
                  % STATUS_DEADLINE_SECONDS)
            time.sleep(0.2)
        executors = len(sc._jsc.sc().statusTracker().getExecutorInfos()) - 1
        check(executors == 2, "two executors, not %d" % executors)
        print("... Spark %s, Hadoop %s, %d executor JVMs" % (sc.version, hadoop, executors))

        for fmt in ("parquet", "orc"):
            check_format(spark, args, fmt)
        check_executor_logs(sc)
    finally:
        try:
            delete_tables(spark, args)
        except Exception as error:  # the job's own outcome matters more than its clean-up
            print("... the tables were not deleted: %s" % error)
        spark.stop()
    print("... PySpark %s: every answer equal through Seekwell, S3A's classic and default streams"
          % args.spark_version)


def delete_tables(spark, args):
    """Deletes what the job wrote, so that the script can delete its buckets on any store."""
    conf = spark.sparkContext._jsc.hadoopConfiguration()
    for bucket in (args.bucket, args.classic_bucket, args.default_bucket):
        tables = spark.sparkContext._jvm.org.apache.hadoop.fs.Path("s3a://%s/tables" % bucket)
        tables.getFileSystem(conf).delete(tables, True)


def check_format(spark, args, fmt):
    sc = spark.sparkContext
    jvm = sc._jvm
    conf = sc._jsc.hadoopConfiguration()
    tables = {
        "seekwell": "s3a://%s/tables/events-%s" % (args.bucket, fmt),
        "classic": "s3a://%s/tables/events-%s" % (args.classic_bucket, fmt),
        "default": "s3a://%s/tables/events-%s" % (args.default_bucket, fmt),
    }
    spark.sql(ROWS).repartition(3).write.format(fmt).save(tables["seekwell"])
    Path = jvm.org.apache.hadoop.fs.Path
    source = Path(tables["seekwell"])
    source_fs = source.getFileSystem(conf)
    for name in ("classic", "default"):
        target = Path(tables[name])
        jvm.org.apache.hadoop.fs.FileUtil.copy(
            source_fs, source, target.getFileSystem(conf), target, False, conf)

    parts = [status for status in source_fs.listStatus(source)
             if status.getPath().getName().endswith("." + fmt)]
    files_bytes = sum(part.getLen() for part in parts)
    streams = {}
    for name, table in tables.items():
        part = Path(table).suffix("/" + parts[0].getPath().getName())
        stream = part.getFileSystem(conf).open(part)
        try:
            streams[name] = stream.getWrappedStream().getClass().getName()
        finally:
            stream.close()
    print("... %s streams: %s" % (fmt, streams))
    check(streams == {"seekwell": SEEKWELL_STREAM, "classic": CLASSIC_STREAM,
                      "default": ANALYTICS_STREAM}, streams)

    spark.sql(ROWS).createOrReplaceTempView("generated")
    for name, table in tables.items():
        spark.read.format(fmt).load(table).createOrReplaceTempView(name)
    for query in QUERIES:
        expected = spark.sql(query.format("generated")).collect()
        for name in tables:
            actual = spark.sql(query.format(name)).collect()
            check(actual == expected, "%s %s: %s, not %s" % (
                fmt, query.format(name), actual, expected))

    inputs = {name: stage_inputs(spark, "%s-%s" % (fmt, name), FULL_SCAN.format(name))
              for name in tables}
    print("... %s full scan, input (bytes, records): %s; the files hold %d bytes"
          % (fmt, inputs, files_bytes))
    records = {name: value[1] for name, value in inputs.items()}
    check(set(records.values()) == {ROW_COUNT}, "records: %s" % records)
    # Seekwell counts the bytes its readers asked for: a full scan reads almost all of the files.
    check(0.98 * files_bytes <= inputs["seekwell"][0] <= 1.02 * files_bytes, (inputs, files_bytes))


def stage_inputs(spark, group, query):
    """Input bytes and records of the stages that ran `query`, from Spark's status API."""
    sc = spark.sparkContext
    sc.setJobGroup(group, query)
    try:
        spark.sql(query).collect()
    finally:
        for key in ("spark.jobGroup.id", "spark.job.description", "spark.job.interruptOnCancel"):
            sc.setLocalProperty(key, None)
    # Every event of the query reaches the status store before it is read.
    sc._jsc.sc().listenerBus().waitUntilEmpty()
    application = "%s/api/v1/applications/%s" % (sc.uiWebUrl, sc.applicationId)
    deadline = time.monotonic() + STATUS_DEADLINE_SECONDS
    while True:
        jobs = [job for job in fetch(application + "/jobs") if job.get("jobGroup") == group]
        if jobs and all(job["status"] == "SUCCEEDED" for job in jobs):
            stages = [attempt for job in jobs for stage in job["stageIds"]
                      for attempt in fetch("%s/stages/%d" % (application, stage))]
            if stages and all(stage["status"] in ("COMPLETE", "SKIPPED") for stage in stages):
                return (sum(stage["inputBytes"] for stage in stages),
                        sum(stage["inputRecords"] for stage in stages))
        if time.monotonic() > deadline:
            raise AssertionError("Spark's status API has no finished job of group %s after %d s: %s"
                                 % (group, STATUS_DEADLINE_SECONDS, jobs))
        time.sleep(0.2)


def fetch(url):
    with urllib.request.urlopen(url, timeout=30) as response:
        return json.load(response)


def check_executor_logs(sc):
    """Each executor logged Seekwell's startup line: the reads ran in the executor JVMs."""
    work = os.path.join(os.environ["SPARK_HOME"], "work", sc.applicationId)
    logs = sorted(glob.glob(os.path.join(work, "*", "stderr")))
    check(len(logs) == 2, "two executors' logs under %s, not %s" % (work, logs))
    for log in logs:
        with open(log, encoding="utf-8", errors="replace") as lines:
            started = [line for line in lines
                       if "S3SeekableInputStreamFactory: " + STARTUP_LINE in line]
        check(len(started) == 1, "%s: Seekwell's startup line %d times" % (log, len(started)))
        # Spark has its say in Seekwell's memory: half of its user memory in a 1 GiB executor.
        check("half of Spark's user memory" in started[0], started[0])
        print("... " + started[0].strip())


if __name__ == "__main__":
    main()
