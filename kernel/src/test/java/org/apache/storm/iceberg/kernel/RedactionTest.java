/*
 * Licensed to the Apache Software Foundation (ASF) under one
 * or more contributor license agreements.  See the NOTICE file
 * distributed with this work for additional information
 * regarding copyright ownership.  The ASF licenses this file
 * to you under the Apache License, Version 2.0 (the
 * "License"); you may not use this file except in compliance
 * with the License.  You may obtain a copy of the License at
 *
 *   http://www.apache.org/licenses/LICENSE-2.0
 *
 * Unless required by applicable law or agreed to in writing,
 * software distributed under the License is distributed on an
 * "AS IS" BASIS, WITHOUT WARRANTIES OR CONDITIONS OF ANY
 * KIND, either express or implied.  See the License for the
 * specific language governing permissions and limitations
 * under the License.
 */

package org.apache.storm.iceberg.kernel;

import org.apache.storm.iceberg.spi.Redaction;
import org.apache.storm.iceberg.spi.RedactedException;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.SQLException;
import java.util.Map;
import org.apache.iceberg.exceptions.CommitStateUnknownException;
import org.apache.iceberg.jdbc.UncheckedSQLException;
import org.junit.jupiter.api.Test;

/** What {@link Redaction} masks in property maps, texts and error chains, and what it keeps. */
class RedactionTest {
  private static final String URL = "jdbc:postgresql://sink:url-pw-R3D@127.0.0.1:1/db?ssl=true&password=query-pw-R3D";

  @Test
  void secretNamesIncludePasswordSpellingsCookiesAndHeaders() {
    assertThat(Map.of(
            "jdbc.pwd", "a-pwd-value",
            "db.passwd", "a-passwd-value",
            "rest.cookie", "session=abc123",
            "header.X-Custom-Thing", "Bearer ey-header-value",
            "warehouse", "s3://bucket/wh"))
        .satisfies(properties -> assertThat(Redaction.redact(properties)).isEqualTo(Map.of(
            "jdbc.pwd", "****",
            "db.passwd", "****",
            "rest.cookie", "****",
            "header.X-Custom-Thing", "****",
            "warehouse", "s3://bucket/wh")));
  }

  @Test
  void textLosesUserInfoSecretParametersAndRememberedValues() {
    Redaction.remember(Map.of("uri", URL, "jdbc.password", "prop-pw-R3D", "token-refresh-enabled", "true"));

    assertThat(Redaction.redact("Failed to connect: " + URL))
        .isEqualTo("Failed to connect: jdbc:postgresql://****@127.0.0.1:1/db?ssl=true&password=****");
    assertThat(Redaction.redact("FATAL: password prop-pw-R3D rejected; query-pw-R3D too; url-pw-R3D too"))
        .as("a remembered secret is masked wherever a driver echoes it")
        .isEqualTo("FATAL: password **** rejected; **** too; **** too");
    assertThat(Redaction.redact("jdbc:sqlserver://db;user=sink;pwd=x1;encrypt=true"))
        .isEqualTo("jdbc:sqlserver://db;user=sink;pwd=****;encrypt=true");
    assertThat(Redaction.redact("flag is true")).as("true/false are never remembered").isEqualTo("flag is true");
  }

  @Test
  void errorChainIsRedactedKeepingTypesAndStackTraces() {
    Redaction.remember(Map.of("uri", URL));
    SQLException driver = new SQLException("No suitable driver found for " + URL);
    UncheckedSQLException connect = new UncheckedSQLException(driver, "Failed to connect: %s", URL);
    CommitStateUnknownException first = new CommitStateUnknownException(connect);
    IllegalStateException lookup = new IllegalStateException("lookup after refresh", new SQLException("reconnect " + URL));
    first.addSuppressed(lookup);

    Throwable shown = Redaction.of(first);

    String trace = stackTrace(shown);
    assertThat(trace)
        .doesNotContain("url-pw-R3D")
        .doesNotContain("query-pw-R3D")
        .contains("org.apache.iceberg.exceptions.CommitStateUnknownException: Failed to connect: jdbc:postgresql://****@")
        .contains("Caused by: org.apache.storm.iceberg.spi.RedactedException: org.apache.iceberg.jdbc.UncheckedSQLException")
        .contains("Caused by: org.apache.storm.iceberg.spi.RedactedException: java.sql.SQLException: No suitable driver")
        .contains("Suppressed: org.apache.storm.iceberg.spi.RedactedException: java.lang.IllegalStateException: lookup")
        .contains("RedactionTest.errorChainIsRedactedKeepingTypesAndStackTraces");
    assertThat(shown.getStackTrace()).isEqualTo(first.getStackTrace());
    assertThat(((RedactedException) shown).originalClassName()).isEqualTo(CommitStateUnknownException.class.getName());
    assertThat(first.getMessage()).as("the original is left as it was, for the sink's decisions").contains("url-pw-R3D");
  }

  @Test
  void cleanErrorIsReportedAsItIs() {
    IllegalStateException clean = new IllegalStateException("table db.events has format version 1");
    clean.addSuppressed(new RuntimeException("nothing secret"));
    assertThat(Redaction.of(clean)).isSameAs(clean);
  }

  @Test
  void cleanCauseKeepsItsOwnType() {
    Redaction.remember(Map.of("jdbc.password", "cause-pw-R3D"));
    SQLException clean = new SQLException("connection reset");
    RuntimeException top = new RuntimeException("login cause-pw-R3D failed", clean);
    assertThat(Redaction.of(top).getCause()).isSameAs(clean);
  }

  static String stackTrace(Throwable error) {
    StringWriter text = new StringWriter();
    error.printStackTrace(new PrintWriter(text));
    return text.toString();
  }
}
