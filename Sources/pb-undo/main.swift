import PBAgent
import PBCore

Tool.main(UndoCommand.spec) { try UndoCommand.run($0) }
