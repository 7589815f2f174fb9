Feature: Multimedia
  Staff read download logs and channel statistics of media, list
  lecture-capture files, and delete media.

  @E13 @E13.200
  Scenario: The download log of a media is a single record, not a list
    When I call E13 for "{records.media}"
    Then the status is 200
    And the body is an object

  @E13 @E13.404
  Scenario: Reading the downloads of a media that does not exist is refused as not found
    When I call E13 for "{absent}"
    Then the status is 404

  @E13 @E13.400.uuid
  Scenario: Reading the downloads of a malformed media id is refused
    When I call E13 for "not-a-uuid"
    Then the status is 400

  @E14 @E14.count @destructive
  Scenario: Deleting medias answers the number deleted, not counting absent ones nor those deleted before
    When I call E14 with body:
      """
      {"iDs": ["{records.deletableMedia.0}", "{absent}"]}
      """
    Then the status is 200
    And the body is 1
    When I call E14 with body:
      """
      {"iDs": ["{records.deletableMedia.0}"]}
      """
    Then the call is refused with a client error, or the body is 0

  @E14 @E14.refused-unchanged @destructive
  Scenario: A delete refused for a malformed id deletes none of the medias it names
    When I call E13 for "{records.deletableMedia.1}"
    Then the status is 200
    When I call E14 with body:
      """
      {"iDs": ["{records.deletableMedia.1}", "not-a-uuid"]}
      """
    Then the call is refused with a client error
    When I call E13 for "{records.deletableMedia.1}"
    Then the earlier refusal changed nothing: the status is 200

  @E14 @E14.gone @destructive
  Scenario: A deleted media is gone
    When I call E13 for "{records.deletableMedia.1}"
    Then the status is 200
    When I call E14 with body:
      """
      {"iDs": ["{records.deletableMedia.1}"]}
      """
    Then the status is 200
    When I call E13 for "{records.deletableMedia.1}"
    Then the status is 404

  @E14 @E14.400.uuid
  Scenario: Deleting medias named by a malformed id is refused
    When I call E14 with body:
      """
      {"iDs": ["not-a-uuid"]}
      """
    Then the status is 400

  @E14 @E14.400.json
  Scenario: Deleting medias with a broken body is refused
    When I call E14 with body:
      """
      {"iDs": ["{absent}"
      """
    Then the status is 400

  @E15 @E15.200
  Scenario: Reading the user statistics of a channel
    When I call E15 for "{records.channel}"
    Then the status is 200
    And the body is an array
    And the list is not empty

  @E15 @E15.per-user
  Scenario: The user statistics of a channel hold one entry per user
    When I call E15 for "{records.channel}"
    Then the status is 200
    And the list is not empty
    And no two entries have the same "matrixNo"

  @E15 @E15.400.uuid
  Scenario: Reading the user statistics of a malformed channel id is refused
    When I call E15 for "not-a-uuid"
    Then the status is 400

  @E15 @E15.400.date
  Scenario Outline: A <param> that is not a date-time is refused
    When I call E15 for "{records.channel}" with:
      | <param> | last tuesday |
    Then the status is 400

    Examples:
      | param     |
      | startDate |
      | endDate   |

  @E16 @E16.200
  Scenario: Reading the lecture-capture files of a media
    When I call E16 for "{records.capture}"
    Then the status is 200
    And the body is an array
    And the list is not empty

  @E16 @E16.400.uuid
  Scenario: Reading the lecture-capture files of a malformed id is refused
    When I call E16 for "not-a-uuid"
    Then the status is 400
