Feature: What a write did
  A write gives back every member it sets as it was sent, at the edges of
  what the specification states; a write refused for its subscription key
  changes nothing; a write to one record leaves the others of its kind
  alone. Every spelling a stated format allows is read, and compared by
  meaning with the usual one.

  @ALL.round-trip @destructive
  Scenario Outline: <op> gives back every member it sets, at the edges
    When I write the edge values of <op>
    Then every member written comes back as sent

    # examples: one per operation with-round-trip

  @ALL.neighbours @destructive
  Scenario Outline: <op> changes its record and leaves another of its kind as it was
    When I change the record of <op>, reading another of its kind before and after
    Then the other record reads as it was

    # examples: one per operation with-neighbour

  @ALL.error-body
  Scenario Outline: A call <how> is refused, if at all, in the stated error form
    Given the user's identity is <identity>
    When I call E19 for "{records.pollResponse}"
    Then a refusal, if any, is in the stated error form

    @E19
    Examples:
      | how                                        | identity                    |
      | without the user's identity                | left out                    |
      | with a user's identity that was never issued | one that was never issued |

  @ALL.uuid-case
  Scenario Outline: <op> reads the records its path names by uuid in upper case as in lower case
    Then the typical call to <op> answers the same with the uuids of its path in upper case

    # examples: one per operation reading-by-path-uuid

  @QS @ALL.uuid-case @destructive
  Scenario: A body naming its record by uuid in upper case names the same record
    When I call QS with body, its uuids in upper case:
      """
      {"id": "{records.quizSection.id}", "name": "Section one"}
      """
    Then the status is 200
    And the field "id" is "{records.quizSection.id}" where present

  @GB @ALL.uuid-case @destructive
  Scenario: Grade items named by their uuids in upper case are the module's grade items
    When I set the weightages of every grade item of the module to total 100
    Then the status is 200
    And the weightages returned are those set
    When I set the weightages of every grade item of the module to total 90, naming the grade items by their uuids in upper case
    Then the status is 200
    And the weightages returned are those set

  @E7 @ALL.uuid-case @destructive
  Scenario: An attendance is added for a resource named by its uuid in upper case
    When I call E7 with body, its uuids in upper case:
      """
      {"resourceID": "{records.attendanceResource}"}
      """
    Then the status is 201

  @E21 @ALL.uuid-case @destructive
  Scenario: Sessions named by their uuids in upper case are the sessions, changed and counted
    When I call E21 with body:
      """
      {"iDs": {records.lectureSessions}, "publish": false}
      """
    Then the status is 200
    When I call E21 with body, its uuids in upper case:
      """
      {"iDs": {records.lectureSessions}, "publish": true}
      """
    Then the status is 200
    And the body is an integer
    And the body is {records.lectureSessions.#}

  @E10 @ALL.date-spelling
  Scenario Outline: A date-time written <how> filters as the same instant in UTC
    When I call E10 for "{records.folder}"
    And I save the moment between the earliest and the latest "logDate" of the list as "mid"
    And I call E10 for "{records.folder}" with:
      | StartDate | {saved.mid} |
    Then the status is 200
    When I save the field "@this" as "utc"
    And I call E10 for "{records.folder}" with "StartDate" at "{saved.mid}" written <how>
    Then the status is 200
    And the list holds the same entries as the list saved as "utc"

    Examples:
      | how                     |
      | with a numeric offset   |
      | with fractional seconds |

  @E10 @ALL.date-case
  Scenario: A date-time written in lower case filters as the same instant
    When I call E10 for "{records.folder}"
    And I save the moment between the earliest and the latest "logDate" of the list as "mid"
    And I call E10 for "{records.folder}" with:
      | StartDate | {saved.mid} |
    Then the status is 200
    When I save the field "@this" as "utc"
    And I call E10 for "{records.folder}" with "StartDate" at "{saved.mid}" written in lower case
    Then the status is 200
    And the list holds the same entries as the list saved as "utc"

  @E15 @ALL.date-spelling
  Scenario Outline: E15 reads a date-time written <how>
    When I call E15 for "{records.channel}" with:
      | startDate | 2020-01-01T00:00:00Z |
    Then the status is 200
    When I save the field "@this" as "utc"
    And I call E15 for "{records.channel}" with "startDate" at "2020-01-01T00:00:00Z" written <how>
    Then the status is 200
    And the list holds the same entries as the list saved as "utc"

    Examples:
      | how                     |
      | with a numeric offset   |
      | with fractional seconds |

  @ALL.media-param
  Scenario Outline: <op> accepts its body as application/json-patch+json; charset=utf-8
    When I make a typical call to <op> with a body of type "application/json-patch+json; charset=utf-8"
    Then the body is not refused for its media type

    # examples: one per operation with-body
