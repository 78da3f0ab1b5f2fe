package org.apache.storm.iceberg.kernel;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;

/** Masks secrets in catalog properties before they reach a log line, a message or toString(). */
public final class Redaction {
  private static final Pattern SECRET_KEY =
      Pattern.compile(".*(credential|token|password|secret|key|auth|signature).*");

  private Redaction() {}

  public static boolean isSecret(String propertyName) {
    return SECRET_KEY.matcher(propertyName.toLowerCase(Locale.ROOT)).matches();
  }

  public static Map<String, String> redact(Map<String, String> properties) {
    Map<String, String> shown = new TreeMap<>();
    properties.forEach((key, value) -> shown.put(key, isSecret(key) ? "****" : value));
    return shown;
  }
}
