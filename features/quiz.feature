Feature: Quiz sections
  Staff update a section of a quiz; marks of its questions are shown only
  when asked for.

  @QS @QS.200 @destructive
  Scenario: Updating a quiz section returns it updated
    When I call QS with body:
      """
      {"id": "{records.quizSection.id}", "name": "Section renamed by campusconf"}
      """
    Then the status is 200
    And the field "id" is "{records.quizSection.id}" where present
    And the field "name" is "Section renamed by campusconf"

  @QS @QS.assessment @destructive
  Scenario: A quiz section names the assessment owning it, the same across updates
    When I call QS with body:
      """
      {"id": "{records.quizSection.id}", "name": "Section one"}
      """
    Then the status is 200
    And the field "assessmentId" is not "{records.quizSection.id}"
    When I save the field "assessmentId" as "owner"
    And I call QS with body:
      """
      {"id": "{records.quizSection.id}", "name": "Section two"}
      """
    Then the status is 200
    And the field "assessmentId" is "{saved.owner}"

  @QS @QS.default @destructive
  Scenario: A quiz section does not show question marks unless told to
    When I call QS with body:
      """
      {"id": "{records.quizSection.id}", "name": "Section one", "displayQuestionMark": false}
      """
    And I call QS with body:
      """
      {"id": "{records.quizSection.id}", "name": "Section one"}
      """
    Then the status is 200
    And the field "displayQuestionMark" is false

  @QS @QS.given @destructive
  Scenario: A quiz section told to show question marks shows them
    When I call QS with body:
      """
      {"id": "{records.quizSection.id}", "name": "Section one", "displayQuestionMark": true}
      """
    Then the status is 200
    And the field "displayQuestionMark" is true
    When I call QS with body:
      """
      {"id": "{records.quizSection.id}", "name": "Section one", "displayQuestionMark": false}
      """
    Then the status is 200

  @QS @QS.400.required
  Scenario Outline: Updating a quiz section without <field> is refused
    When I call QS with body:
      """
      <body>
      """
    Then the status is 400

    Examples:
      | field | body                                    |
      | id    | {"name": "Section one"}                 |
      | name  | {"id": "{records.quizSection.id}"}      |

  @QS @QS.400.uuid
  Scenario: Updating a quiz section named by a malformed id is refused
    When I call QS with body:
      """
      {"id": "not-a-uuid", "name": "Section one"}
      """
    Then the status is 400

  @QS @QS.400.json
  Scenario: Updating a quiz section with a broken body is refused
    When I call QS with body:
      """
      {"id": "{records.quizSection.id}", "name": "Section one
      """
    Then the status is 400

  @QS @QS.400.type
  Scenario: Updating a quiz section with a non-integer displayedRandomQuestions is refused
    When I call QS with body:
      """
      {"id": "{records.quizSection.id}", "name": "Section one", "displayedRandomQuestions": "three"}
      """
    Then the status is 400
