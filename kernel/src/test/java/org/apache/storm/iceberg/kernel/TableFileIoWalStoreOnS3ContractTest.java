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

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.apache.iceberg.aws.s3.S3FileIO;
import org.apache.iceberg.catalog.Catalog;
import org.apache.storm.iceberg.spi.WalScope;
import org.apache.storm.iceberg.spi.contract.ContractTables;
import org.apache.storm.iceberg.spi.contract.WalStoreContractTest;
import org.apache.storm.iceberg.testing.S3MockServer;
import org.apache.storm.iceberg.testing.TestCatalogs;
import org.apache.storm.iceberg.testing.TestTiers;
import org.apache.storm.iceberg.wal.TableFileIoWalStoreFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The default WAL store's contract on S3: tables in a JdbcCatalog whose warehouse is a bucket of
 * the test JVM's {@link S3MockServer}, so every entry is put, listed by prefix and deleted through
 * {@link S3FileIO}, as on a production table in an object store.
 */
class TableFileIoWalStoreOnS3ContractTest extends WalStoreContractTest {
  private Catalog catalog;

  @Override
  protected String providerName() {
    return TableFileIoWalStoreFactory.NAME;
  }

  @Override
  protected ContractTables newTables() {
    catalog = TestCatalogs.load(TestCatalogs.jdbcSqliteOnS3(dir));
    return new ContractTables(catalog);
  }

  @AfterEach
  void closeCatalog() throws Exception {
    ((AutoCloseable) catalog).close();
  }

  /** 150 requests to S3Mock, the contract's longest case on S3: it runs there in the long tier only. */
  @Test
  @Override
  public void twoTasksWritingAtOnceSeeOnlyTheirOwnEntries() throws Exception {
    TestTiers.longTierOnly("the other cases put, list and delete on S3 in the quick tier");
    super.twoTasksWritingAtOnceSeeOnlyTheirOwnEntries();
  }

  @Test
  void entriesAreObjectsInTheBucketWrittenThroughS3FileIo() {
    assertThat(table.io()).isInstanceOf(S3FileIO.class);
    String location = store.put(new WalScope(table, "default", "topology", "iceberg", 0), "commit-1",
        "one".getBytes(StandardCharsets.UTF_8));
    assertThat(location).startsWith("s3://" + S3MockServer.BUCKET + "/").contains("/metadata/_storm_wal/");
    assertThat(table.io().newInputFile(location).exists()).isTrue();
  }
}
