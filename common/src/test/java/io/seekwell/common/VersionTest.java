package io.seekwell.common;

import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class VersionTest {

  @Test
  void theBuildRecordsTheVersion() {
    assertTrue(Version.current().matches("\\d+\\.\\d+\\.\\d+(-SNAPSHOT)?"), Version.current());
  }
}
