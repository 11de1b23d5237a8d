package io.seekwell.spark;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.spark.SparkContext;
import org.apache.spark.executor.InputMetrics;
import org.apache.spark.scheduler.SparkListener;
import org.apache.spark.scheduler.SparkListenerJobEnd;
import org.apache.spark.scheduler.SparkListenerJobStart;
import org.apache.spark.scheduler.SparkListenerStageCompleted;
import org.apache.spark.scheduler.StageInfo;
import org.apache.spark.sql.SparkSession;

/**
 * What Spark reports as each stage's input (the "Input" column of its UI and status API: bytes and
 * records read), for the stages of one query, as Spark's listener bus delivers the stages' ends.
 * Operators judge a job by these figures, so a stream must report the bytes it returns to the
 * reader in the reader's thread, as the engine's own streams do.
 */
final class StageInputs extends SparkListener {

  private static final String JOB_GROUP = "spark.jobGroup.id";
  private static final String MARKER = "stage-inputs-marker";

  /** One stage's input: what its tasks read, added up. */
  record Input(long bytes, long records) {
    @Override
    public String toString() {
      return bytes + " bytes, " + records + " records";
    }
  }

  private final Map<Integer, String> groupOfStage = new ConcurrentHashMap<>();
  private final Map<String, List<Input>> inputsOfGroup = new ConcurrentHashMap<>();
  private final Map<String, CountDownLatch> ends = new ConcurrentHashMap<>();
  private final AtomicInteger queries = new AtomicInteger();

  private StageInputs() {}

  /** A listener of {@code context}'s events, added to it. */
  static StageInputs of(SparkContext context) {
    StageInputs inputs = new StageInputs();
    context.addSparkListener(inputs);
    return inputs;
  }

  /**
   * Runs {@code query} in {@code session} and gives the input of each of its stages that read any,
   * in the order the stages ended. Waits (up to a minute) until Spark has delivered every event of
   * the query: a marker job run after it ends after them, on the same bus.
   */
  List<Input> of(SparkSession session, String query) throws InterruptedException {
    String group = "stage-inputs-" + queries.incrementAndGet();
    SparkContext context = session.sparkContext();
    context.setJobGroup(group, query, false);
    try {
      session.sql(query).collectAsList();
      String marker = MARKER + "-" + group;
      CountDownLatch end = ends.computeIfAbsent(marker, ignored -> new CountDownLatch(1));
      context.setJobGroup(marker, "marks the end of " + group, false);
      session.range(1).collectAsList();
      if (!end.await(1, TimeUnit.MINUTES)) {
        throw new IllegalStateException("Spark delivered no end of the marker job of " + query);
      }
    } finally {
      context.clearJobGroup();
    }
    return List.copyOf(inputsOfGroup.getOrDefault(group, List.of()));
  }

  @Override
  public void onJobStart(SparkListenerJobStart start) {
    String group = start.properties() == null ? null : start.properties().getProperty(JOB_GROUP);
    if (group == null) {
      return;
    }
    for (StageInfo stage : scala.jdk.javaapi.CollectionConverters.asJava(start.stageInfos())) {
      groupOfStage.put(stage.stageId(), group);
    }
    if (group.startsWith(MARKER)) {
      groupOfStage.put(-start.jobId() - 1, group);
    }
  }

  @Override
  public void onStageCompleted(SparkListenerStageCompleted completed) {
    StageInfo stage = completed.stageInfo();
    String group = groupOfStage.get(stage.stageId());
    if (group == null || group.startsWith(MARKER)) {
      return;
    }
    InputMetrics input = stage.taskMetrics().inputMetrics();
    if (input.bytesRead() > 0 || input.recordsRead() > 0) {
      inputsOfGroup
          .computeIfAbsent(group, ignored -> new ArrayList<>())
          .add(new Input(input.bytesRead(), input.recordsRead()));
    }
  }

  @Override
  public void onJobEnd(SparkListenerJobEnd end) {
    String group = groupOfStage.get(-end.jobId() - 1);
    if (group != null) {
      ends.computeIfAbsent(group, ignored -> new CountDownLatch(1)).countDown();
    }
  }
}
