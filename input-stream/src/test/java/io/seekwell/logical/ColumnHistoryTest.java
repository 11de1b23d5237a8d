package io.seekwell.logical;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** Which readers' columns a schema's history holds. */
class ColumnHistoryTest {

  private final ColumnHistory history = new ColumnHistory(10);

  @Test
  void aSchemaNoReaderReadIsEmpty() {
    history.newReader();

    assertEquals(Set.of(), history.learned("schema"));
  }

  @Test
  void aReaderCountsFromItsFirstColumnAndWhileItIsTheLastToStart() {
    ColumnHistory.Reader reader = history.newReader();
    reader.learn("schema", "a");
    reader.learn("schema", "b");
    reader.close();

    assertEquals(Set.of("a", "b"), history.learned("schema"));
    assertEquals(Set.of(), history.learned("other schema"));
  }

  @Test
  void aClosedReaderIsForgottenOnceANewerOneStartsReadingColumns() {
    ColumnHistory.Reader old = history.newReader();
    old.learn("schema", "a");
    old.close();
    ColumnHistory.Reader footersOnly = history.newReader();
    footersOnly.close();
    assertEquals(Set.of("a"), history.learned("schema"), "a reader of footers does not count");

    history.newReader().learn("schema", "b");

    assertEquals(Set.of("b"), history.learned("schema"));
  }

  @Test
  void anOpenReadersColumnsCountThoughNewerReadersStarted() {
    ColumnHistory.Reader open = history.newReader();
    open.learn("schema", "a");
    ColumnHistory.Reader newer = history.newReader();
    newer.learn("schema", "b");
    newer.close();

    open.learn("schema", "c");

    assertEquals(Set.of("a", "b", "c"), history.learned("schema"));
    open.close();
    assertEquals(Set.of("b"), history.learned("schema"));
  }

  @Test
  void onlyTheLastReadersToStartAreLookedAtForOpenOnes() {
    List<ColumnHistory.Reader> open = new ArrayList<>();
    for (int i = 0; i <= ColumnHistory.READERS_KEPT; i++) {
      ColumnHistory.Reader reader = history.newReader();
      reader.learn("schema", "c" + i);
      open.add(reader);
    }

    Set<String> learned = history.learned("schema");

    assertEquals(ColumnHistory.READERS_KEPT, learned.size(), learned.toString());
    assertEquals(false, learned.contains("c0"), "the first reader is one too many");
  }

  @Test
  void aReaderPredictsItsOwnColumnsAfterItIsNoLongerAmongTheRecentReaders() {
    ColumnHistory.Reader first = history.newReader();
    first.learn("schema", "own");
    for (int i = 0; i < ColumnHistory.READERS_KEPT; i++) {
      history.newReader().learn("schema", "c" + i);
    }

    assertEquals(false, history.learned("schema").contains("own"));
    assertEquals(true, first.predicted("schema").contains("own"));
    assertEquals(ColumnHistory.READERS_KEPT + 1, first.predicted("schema").size());
  }

  @Test
  void aReaderPredictsItsOwnColumnsAfterItsSchemaIsForgotten() {
    ColumnHistory oneSchema = new ColumnHistory(1);
    ColumnHistory.Reader reader = oneSchema.newReader();
    reader.learn("schema", "a");
    oneSchema.newReader().learn("other schema", "b");

    assertEquals(Set.of(), oneSchema.learned("schema"));
    assertEquals(Set.of("a"), reader.predicted("schema"));
  }

  @Test
  void aReaderToldOfASecondSchemaIsRefused() {
    ColumnHistory.Reader reader = history.newReader();
    reader.learn("schema", "a");

    assertThrows(IllegalStateException.class, () -> reader.learn("other schema", "a"));
  }
}
