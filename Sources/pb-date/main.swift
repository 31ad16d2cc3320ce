import PBAgent
import PBCore

Tool.main(DateCommand.spec) { try DateCommand.run($0) }
