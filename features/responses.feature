Feature: Survey and poll responses, and the students of a resource
  Staff read the responses to survey and poll questions and the students
  who may access a resource.

  @E17 @E17.200
  Scenario: Reading the responses to a survey question
    When I call E17 for "{records.surveyQuestion}"
    Then the status is 200
    And the body is an array
    And the list is not empty


  @E17 @E17.404
  Scenario: Reading the responses to a survey question that does not exist is refused as not found
    When I call E17 for "{absent}"
    Then the status is 404

  @E17 @E17.400.uuid
  Scenario: Reading the responses to a malformed survey question id is refused
    When I call E17 for "not-a-uuid"
    Then the status is 400

  @E17 @E17.populate
  Scenario: Reading survey responses accepts populate=Creator
    When I call E17 for "{records.surveyQuestion}" with:
      | populate | Creator |
    Then the status is 200

  @E17 @E17.creator
  Scenario: Survey responses read with populate=Creator describe their creator
    When I call E17 for "{records.surveyQuestion}" with:
      | populate | Creator |
    Then the status is 200
    And the creator of every entry is filled in

  @E17 @E17.populate-unknown
  Scenario: Reading survey responses refuses an unknown populate entity
    When I call E17 for "{records.surveyQuestion}" with:
      | populate | Nonsense |
    Then the status is 400

  @E18 @E18.200
  Scenario: Reading the responses to a poll question
    When I call E18 for "{records.pollQuestion}"
    Then the status is 200
    And the body is an array
    And the list is not empty


  @E18 @E18.400.uuid
  Scenario: Reading the responses to a malformed poll question id is refused
    When I call E18 for "not-a-uuid"
    Then the status is 400

  @E18 @E18.populate
  Scenario: Reading poll responses accepts populate=photo
    When I call E18 for "{records.pollQuestion}" with:
      | populate | photo |
    Then the status is 200

  @E18 @E18.photo
  Scenario: Poll responses read with populate=photo carry a photo
    When I call E18 for "{records.pollQuestion}" with:
      | populate | photo |
    Then the status is 200
    And the list is not empty
    And every entry has a non-empty "photo"

  @E18 @E18.populate-unknown
  Scenario: Reading poll responses refuses an unknown populate entity
    When I call E18 for "{records.pollQuestion}" with:
      | populate | Nonsense |
    Then the status is 400

  @E19 @E19.200
  Scenario: Reading one poll response
    When I call E19 for "{records.pollResponse}"
    Then the status is 200
    And the body is an object

  @E19 @E19.agrees
  Scenario: A poll response read by its id is the one its question's responses list
    When I call E19 for "{records.pollResponse}"
    Then the status is 200
    And the same record as E18 lists it for the answer's "questionID" agrees in every member both carry


  @E19 @E19.400.uuid
  Scenario: Reading a poll response by a malformed id is refused
    When I call E19 for "not-a-uuid"
    Then the status is 400

  @E20 @E20.200
  Scenario: Reading the students of a resource
    When I call E20 for "{records.resource}"
    Then the status is 200
    And the body is an array
    And the list is not empty

  @E20 @E20.distinct
  Scenario: The students of a resource are each listed once
    When I call E20 for "{records.resource}"
    Then the status is 200
    And the list is not empty
    And no two entries have the same "id"

  @E20 @E20.400.uuid
  Scenario: Reading the students of a malformed resource id is refused
    When I call E20 for "not-a-uuid"
    Then the status is 400

  @E20 @E20.populate
  Scenario: Reading students accepts populate=photo
    When I call E20 for "{records.resource}" with:
      | populate | photo |
    Then the status is 200

  @E20 @E20.photo
  Scenario: Students read with populate=photo carry a photo
    When I call E20 for "{records.resource}" with:
      | populate | photo |
    Then the status is 200
    And the list is not empty
    And every entry has a non-empty "photo"

  @E20 @E20.populate-unknown
  Scenario: Reading students refuses an unknown populate entity
    When I call E20 for "{records.resource}" with:
      | populate | Nonsense |
    Then the status is 400
