Feature: Consultation slots
  Staff holding Access_Delete on a module delete its consultation slots.

  @E5 @E5.403 @destructive
  Scenario: A user without Access_Delete may not delete slots, and they stay
    Given I am "staff"
    When I call E5 with body:
      """
      {"iDs": ["{records.deletableSlots.0}"]}
      """
    Then the status is 403
    Given I am "owner"
    When I call E5 with body:
      """
      {"iDs": ["{records.deletableSlots.0}"]}
      """
    Then the earlier refusal changed nothing: the status is 204 or 200

  @E5 @E5.success @destructive
  Scenario: Deleting slots answers 204, or 200 with the ids of the slots deleted
    When I call E5 with body:
      """
      {"iDs": ["{records.deletableSlots.1}", "{absent}"]}
      """
    And where that was refused, I call E5 with body:
      """
      {"iDs": ["{records.deletableSlots.1}"]}
      """
    Then the status is 204 or 200
    And a 200 answer is the array of the ids sent in "iDs" that name a record

  @E5 @E5.gone @E5.refused-unchanged @destructive
  Scenario: A delete refused for a malformed id deletes nothing; deleted slots are gone
    When I call E5 with body:
      """
      {"iDs": ["{records.deletableSlots.2}", "not-a-uuid"]}
      """
    Then the call is refused with a client error
    When I call E5 with body:
      """
      {"iDs": ["{records.deletableSlots.2}"]}
      """
    Then the earlier refusal changed nothing: the status is 204 or 200
    When I call E5 with body:
      """
      {"iDs": ["{records.deletableSlots.2}"]}
      """
    Then the status is 404

  @E5 @E5.404
  Scenario: Deleting slots that do not exist is refused as not found
    When I call E5 with body:
      """
      {"iDs": ["{absent}"]}
      """
    Then the status is 404

  @E5 @E5.400.uuid
  Scenario: Deleting slots named by a malformed id is refused
    When I call E5 with body:
      """
      {"iDs": ["not-a-uuid"]}
      """
    Then the status is 400

  @E5 @E5.400.json
  Scenario: Deleting slots with a broken body is refused
    When I call E5 with body:
      """
      {"iDs": [
      """
    Then the status is 400
