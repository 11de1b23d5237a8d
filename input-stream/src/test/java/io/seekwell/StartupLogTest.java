package io.seekwell;

import static org.junit.jupiter.api.Assertions.assertTrue;

import io.seekwell.common.config.ConnectorConfiguration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class StartupLogTest {

  @Test
  void theLineGivesTheFactorysMemoryLimitAndTheJvmsBudget() {
    S3SeekableInputStreamConfiguration configuration =
        S3SeekableInputStreamConfiguration.fromConfiguration(
            ConnectorConfiguration.of(Map.of("physicalio.max.memory.limit", "64MB")));
    String line =
        StartupLog.settings(
            configuration,
            new PhysicalIOConfiguration.JvmBudget(256L << 20, "half of Spark's user memory"),
            List.of("parquet"));
    assertTrue(
        line.startsWith("memory limit 67108864 bytes, within the JVM's 268435456 bytes"), line);
    assertTrue(line.contains("(seekwell.memory.limit: half of Spark's user memory)"), line);
  }
}
