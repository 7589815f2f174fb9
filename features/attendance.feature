Feature: Attendance
  Staff add a default attendance to a resource and delete attendances.

  @E7 @E7.201 @destructive
  Scenario: Adding a default attendance answers 201 with the new record
    When I call E7 with body:
      """
      {"resourceID": "{records.attendanceResource}"}
      """
    Then the status is 201
    And the body is an object
    And the field "resourceID" is "{records.attendanceResource}" where present

  @E7 @E7.default-publish @destructive
  Scenario: A default attendance is published unless told otherwise
    When I call E7 with body:
      """
      {"resourceID": "{records.attendanceResource}"}
      """
    Then the status is 201
    And the field "publish" is true

  @E7 @E7.publish @destructive
  Scenario: A default attendance added with publish false is not published
    When I call E7 with body:
      """
      {"resourceID": "{records.attendanceResource}", "publish": false}
      """
    Then the status is 201
    And the field "publish" is false

  @E7 @E7.isDefault @destructive
  Scenario: A freshly added default attendance is marked as default
    When I call E7 with body:
      """
      {"resourceID": "{records.attendanceResource}"}
      """
    Then the status is 201
    And the field "isDefault" is true

  @E7 @E7.400.required
  Scenario: Adding a default attendance without a resource is refused
    When I call E7 with body:
      """
      {"publish": true}
      """
    Then the status is 400

  @E7 @E7.400.uuid
  Scenario: Adding a default attendance to a malformed resource id is refused
    When I call E7 with body:
      """
      {"resourceID": "not-a-uuid"}
      """
    Then the status is 400

  @E7 @E7.400.json
  Scenario: Adding a default attendance with a broken body is refused
    When I call E7 with body:
      """
      {"resourceID": "{records.attendanceResource}"
      """
    Then the status is 400

  @E7 @E7.400.type
  Scenario: Adding a default attendance with publish as a string is refused
    When I call E7 with body:
      """
      {"resourceID": "{records.attendanceResource}", "publish": "yes"}
      """
    Then the status is 400

  @E8 @E8.204 @destructive
  Scenario: Deleting an attendance just added answers 204 with no body
    When I call E7 with body:
      """
      {"resourceID": "{records.attendanceResource}"}
      """
    Then the status is 201
    When I save the field "id" as "added"
    And I call E8 with body:
      """
      {"resourceID": "{records.attendanceResource}", "iDs": ["{saved.added}"]}
      """
    Then the status is 204

  @E8 @E8.400.required
  Scenario: Deleting attendances without the resource is refused
    When I call E8 with body:
      """
      {"iDs": ["{absent}"]}
      """
    Then the status is 400

  @E8 @E8.400.uuid
  Scenario: Deleting attendances named by a malformed id is refused
    When I call E8 with body:
      """
      {"resourceID": "{records.attendanceResource}", "iDs": ["not-a-uuid"]}
      """
    Then the status is 400

  @E8 @E8.400.json
  Scenario: Deleting attendances with a broken body is refused
    When I call E8 with body:
      """
      {"resourceID":
      """
    Then the status is 400
