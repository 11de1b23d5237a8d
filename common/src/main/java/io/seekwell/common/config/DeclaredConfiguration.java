package io.seekwell.common.config;

import java.util.Objects;

/**
 * A configuration whose state is one value for each setting of its {@link SettingGroup}: the
 * subclass declares the settings and their accessors, this class keeps the values and gives
 * equality and printing. Immutable and thread-safe.
 */
public abstract class DeclaredConfiguration {

  private final SettingValues values;

  /** A configuration holding {@code values}. */
  protected DeclaredConfiguration(SettingValues values) {
    this.values = Objects.requireNonNull(values, "values");
  }

  /** The value of {@code setting}, for the subclass's accessors. */
  protected final <T> T get(Setting<T> setting) {
    return values.get(setting);
  }

  /** The values, to start a builder from. */
  protected final SettingValues values() {
    return values;
  }

  @Override
  public final boolean equals(Object other) {
    return other != null
        && other.getClass() == getClass()
        && values.equals(((DeclaredConfiguration) other).values);
  }

  @Override
  public final int hashCode() {
    return values.hashCode();
  }

  /** The class's simple name and each setting's key and value. */
  @Override
  public final String toString() {
    return getClass().getSimpleName() + values;
  }

  /**
   * The base of the builders of {@link DeclaredConfiguration}s: each of the subclass's methods sets
   * one setting through {@link #set}, which refuses a value out of the setting's range naming its
   * key. Not thread-safe.
   *
   * @param <B> the builder's own type
   */
  public abstract static class Builder<B extends Builder<B>> {

    private SettingValues values;

    /** A builder starting from {@code values}. */
    protected Builder(SettingValues values) {
      this.values = Objects.requireNonNull(values, "values");
    }

    /**
     * Sets {@code setting} to {@code value}.
     *
     * @throws IllegalArgumentException naming the key, for a value out of the setting's range
     */
    @SuppressWarnings("unchecked") // B is this builder's own type
    protected final <T> B set(Setting<T> setting, T value) {
      values = values.with(setting, value);
      return (B) this;
    }

    /** The values set so far. */
    protected final SettingValues values() {
      return values;
    }
  }
}
