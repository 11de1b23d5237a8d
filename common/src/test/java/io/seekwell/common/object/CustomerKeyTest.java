package io.seekwell.common.object;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class CustomerKeyTest {

  @Test
  void computesBase64AndMd5() {
    byte[] raw = new byte[32];
    Arrays.fill(raw, (byte) 1);
    CustomerKey key = CustomerKey.of(raw);
    assertEquals("AQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQEBAQE=", key.base64Key());
    // MD5 of 32 bytes of 0x01, base64, as computed by an independent tool.
    assertEquals("4Funlf7OsLF0HL+vKU+fkg==", key.base64KeyMd5());
    assertEquals(key, CustomerKey.fromBase64(key.base64Key()));
    assertFalse(key.toString().contains(key.base64Key()));
  }

  @Test
  void rejectsWrongLengthAndBadText() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CustomerKey.of(new byte[16]));
    assertEquals("An SSE-C key must be 32 bytes (AES-256), was 16", e.getMessage());
    assertThrows(IllegalArgumentException.class, () -> CustomerKey.fromBase64("not base64!"));
  }

  @Test
  void locationsAndRequestsValidate() {
    assertThrows(IllegalArgumentException.class, () -> ObjectLocation.of("", "k"));
    assertThrows(IllegalArgumentException.class, () -> ObjectLocation.of("b", ""));
    assertEquals("s3://b/k/x", ObjectLocation.of("b", "k/x").toString());
    assertThrows(IllegalArgumentException.class, () -> ObjectMetadata.of(-1, "e"));
  }
}
