Feature: Bank folders
  A personal bank folder is copied to share its content.

  @E6 @E6.201 @destructive
  Scenario: Copying a bank folder creates a new folder
    When I call E6 for "{records.bankFolder}"
    Then the status is 201
    And the field "id" is a non-empty string
    And the field "id" is not "{records.bankFolder}"

  @E6 @E6.copy-visible @destructive
  Scenario: The copy of a bank folder exists afterwards
    When I call E6 for "{records.bankFolder}"
    Then the status is 201
    When I save the field "id" as "copy"
    And I call E6 for "{saved.copy}"
    Then the status is 201

  @E6 @E6.404
  Scenario: Copying a bank folder that does not exist is refused as not found
    When I call E6 for "{absent}"
    Then the status is 404

  @E6 @E6.400.uuid
  Scenario: Copying a bank folder named by a malformed id is refused
    When I call E6 for "not-a-uuid"
    Then the status is 400

  @E6 @E6.populate @destructive
  Scenario Outline: Copying a bank folder accepts populate=<entity>
    When I call E6 for "{records.bankFolder}" with:
      | populate | <entity> |
    Then the status is 201

    Examples:
      | entity       |
      | Creator      |
      | ContentCount |

  @E6 @E6.populate-creator @destructive
  Scenario: A copy made with populate=Creator describes its creator
    When I call E6 for "{records.bankFolder}" with:
      | populate | Creator |
    Then the status is 201
    And the creator of the copy is filled in

  @E6 @E6.populate-unknown
  Scenario: Copying a bank folder refuses an unknown populate entity
    When I call E6 for "{records.bankFolder}" with:
      | populate | Nonsense |
    Then the status is 400
