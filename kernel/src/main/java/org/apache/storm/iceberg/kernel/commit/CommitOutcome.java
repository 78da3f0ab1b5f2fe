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

package org.apache.storm.iceberg.kernel.commit;

/**
 * How one commit attempt settled.
 *
 * @param status what happened
 * @param commitId the commit id the files were appended under
 * @param error what the catalog reported, or null
 */
public record CommitOutcome(Status status, String commitId, Exception error) {

  /** What happened to a commit. */
  public enum Status {
    /** The append landed. */
    COMMITTED,
    /** The append reported an error, but a snapshot carries its commit id: it landed. */
    COMMITTED_AFTER_ERROR,
    /**
     * The append did not land, and cannot land later: no snapshot carries its commit id, and the
     * error was a definite "not applied" (see {@link CommitSettler}), or the append was never tried.
     */
    FAILED,
    /**
     * Not appended: the batch's oldest tuple passed its commit deadline (the message timeout less
     * the margin) before an attempt could land, so Storm is about to replay its tuples. Nothing of
     * it is visible.
     */
    EXPIRED,
    /**
     * The append reported an ambiguous error and could not be settled: it may still land. Reached in
     * four ways: the settler's retries under the same commit id ran out while every look and retry
     * stayed ambiguous (the table could not be read, or each retry met another ambiguous error); the
     * committing thread was interrupted while it waited to retry; the batch's commit deadline came
     * before the next retry could; or the table was dropped or recreated, so no retry may land in
     * it. The tuples are failed and replay; the WAL entry stays, for the task's next incarnation to
     * settle and log. Of the outcomes, only this one can leave a duplicate.
     */
    UNKNOWN
  }

  /** Whether the files are visible in the table, so the tuples may be acked. */
  public boolean landed() {
    return status == Status.COMMITTED || status == Status.COMMITTED_AFTER_ERROR;
  }
}
