package io.seekwell.physical.disk;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Field;
import java.nio.ByteBuffer;
import java.nio.MappedByteBuffer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases a file mapping at once, rather than when the garbage collector finds its buffer: an
 * evicted object's disk space and the process's count of mappings must not wait for a collection.
 * Java 17 has no public way to do it; {@code sun.misc.Unsafe.invokeCleaner} (module {@code
 * jdk.unsupported}) does. From Java 24 on, that method prints a deprecation warning on first use,
 * so it is not used there: where it is not, {@link #available()} is false and nothing is mapped.
 * The caller makes sure nothing reads the buffer afterwards: a read of an unmapped buffer crashes
 * the process. Stateless and thread-safe.
 */
final class Mappings {

  private static final Logger LOG = LoggerFactory.getLogger(Mappings.class);
  private static final MethodHandle INVOKE_CLEANER = invokeCleaner();

  private Mappings() {}

  /** Whether mappings can be released at once on this runtime. */
  static boolean available() {
    return INVOKE_CLEANER != null;
  }

  private static MethodHandle invokeCleaner() {
    if (Runtime.version().feature() >= 24) {
      return null;
    }
    try {
      Class<?> unsafeClass = Class.forName("sun.misc.Unsafe");
      Field instance = unsafeClass.getDeclaredField("theUnsafe");
      instance.setAccessible(true);
      return MethodHandles.lookup()
          .findVirtual(
              unsafeClass, "invokeCleaner", MethodType.methodType(void.class, ByteBuffer.class))
          .bindTo(instance.get(null));
    } catch (ReflectiveOperationException | RuntimeException e) {
      LOG.debug("The disk cache reads with positional reads only: it cannot unmap files", e);
      return null;
    }
  }

  /** Unmaps {@code buffer}, which nothing may read afterwards; only if {@link #available()}. */
  static void unmap(MappedByteBuffer buffer) {
    try {
      INVOKE_CLEANER.invokeExact((ByteBuffer) buffer);
    } catch (Error e) {
      throw e;
    } catch (Throwable e) { // IllegalArgumentException if the buffer is not a mapping's own
      LOG.debug("Unmapping a disk cache file failed; the garbage collector will", e);
    }
  }
}
