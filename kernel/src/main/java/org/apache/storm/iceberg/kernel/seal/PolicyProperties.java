package org.apache.storm.iceberg.kernel.seal;

import java.util.Map;

/** Reads the built-in seal policies' numeric properties, with messages that name the policy. */
final class PolicyProperties {
  private PolicyProperties() {}

  /** The property as a whole number, 0 when absent. */
  static long wholeNumber(String policy, Map<String, String> properties, String key) {
    String value = properties.get(key);
    if (value == null) {
      return 0;
    }
    try {
      return Long.parseLong(value.trim());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "seal policy '" + policy + "': " + key + " '" + value + "' is not a whole number", e);
    }
  }
}
