import PBAnswer
import PBCore

Tool.main(PackCommand.spec) { try PackCommand.run($0) }
