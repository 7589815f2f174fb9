Feature: Files and weblinks
  Staff read the download log of a folder, the annotations of a file and
  the view log of a weblink.

  @E10 @E10.200
  Scenario: Reading the download log of a folder
    When I call E10 for "{records.folder}"
    Then the status is 200
    And the body is an array
    And the list is not empty

  @E10 @E10.400.uuid
  Scenario: Reading the download log of a malformed folder id is refused
    When I call E10 for "not-a-uuid"
    Then the status is 400

  @E10 @E10.search
  Scenario: SearchText keeps only entries naming the text
    When I call E10 for "{records.folder}"
    Then the status is 200
    And the list is not empty
    When I save the field "#.fileName|0" as "needle"
    And I call E10 for "{records.folder}" with:
      | SearchText | {saved.needle} |
    Then the status is 200
    And the list is not empty
    And every entry has "name" or "fileName" containing "{saved.needle}"

  @E10 @E10.dates
  Scenario: StartDate keeps the entries after it and none before it
    When I call E10 for "{records.folder}"
    Then the status is 200
    When I save the moment between the earliest and the latest "logDate" of the list as "mid"
    And I call E10 for "{records.folder}" with:
      | StartDate | {saved.mid} |
    Then the status is 200
    And the list is not empty
    And every entry has "logDate" at or after "{saved.mid}"

  @E10 @E10.dates
  Scenario: EndDate keeps the entries before it and none after it
    When I call E10 for "{records.folder}"
    Then the status is 200
    When I save the moment between the earliest and the latest "logDate" of the list as "mid"
    And I call E10 for "{records.folder}" with:
      | EndDate | {saved.mid} |
    Then the status is 200
    And the list is not empty
    And every entry has "logDate" at or before "{saved.mid}"

  @E10 @E10.400.date
  Scenario Outline: A <param> that is not a date-time is refused
    When I call E10 for "{records.folder}" with:
      | <param> | last tuesday |
    Then the status is 400

    Examples:
      | param     |
      | StartDate |
      | EndDate   |

  @E11 @E11.200
  Scenario: Reading the annotations of a file
    When I call E11 for "{records.file}"
    Then the status is 200
    And the body is an array
    And the list is not empty

  @E11 @E11.400.uuid
  Scenario: Reading the annotations of a malformed file id is refused
    When I call E11 for "not-a-uuid"
    Then the status is 400

  @E12 @E12.200
  Scenario: Reading the view log of a weblink
    When I call E12 for "{records.weblink}"
    Then the status is 200
    And the body is an array
    And the list is not empty

  @E12 @E12.404
  Scenario: Reading the view log of a weblink that does not exist is refused as not found
    When I call E12 for "{absent}"
    Then the status is 404

  @E12 @E12.400.uuid
  Scenario: Reading the view log of a malformed weblink id is refused
    When I call E12 for "not-a-uuid"
    Then the status is 400
